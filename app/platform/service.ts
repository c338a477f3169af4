import type { Server } from "bun";
import { createApp } from "../http/app";
import { warmConsole } from "../http/console-routes";
import { bootstrapSuperAdmin } from "./bootstrap";
import type { Config } from "./config";
import { httpDepsOf } from "./http-deps";
import { createPlatform } from "./platform";

/**
 * The running service behind serve.ts's listener: the platform (databases, runtimes, services), the first SUPER_ADMIN,
 * the HTTP application, and the background work started. serve.ts imports this module only after it listens, so that
 * liveness answers while these ~0.6 s of modules load.
 */
export async function startService(config: Config) {
  const platform = createPlatform({ config });
  const admin = await bootstrapSuperAdmin(platform);
  const app = createApp(httpDepsOf(platform));
  platform.start();
  // After the listener is serving: the console bundle builds in the background and never delays a request.
  setTimeout(warmConsole, 0);
  return {
    platform,
    admin,
    fetch: (req: Request, server: Server<undefined>) => app.fetch(req, { server }),
  };
}
