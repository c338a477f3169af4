import { loadConfig } from "../platform/config";
import { createPlatform } from "../platform/platform";
import { bootstrapSuperAdmin } from "../platform/bootstrap";
import { httpDepsOf } from "../platform/http-deps";
import { createApp } from "./app";

const config = loadConfig();
const platform = createPlatform({ config });
await bootstrapSuperAdmin(platform);
const app = createApp(httpDepsOf(platform));
platform.start();

const server = Bun.serve({
  port: config.port,
  hostname: config.host,
  // The MCP event stream must outlive the default idle timeout.
  idleTimeout: 255,
  fetch: (req, srv) => app.fetch(req, { server: srv }),
});
console.log(`[start] listening on http://${server.hostname}:${server.port} (data in ${config.dataDir})`);

const shutdown = async () => {
  server.stop();
  await platform.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
