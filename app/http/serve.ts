import { loadConfig } from "../platform/config";
import { createPlatform } from "../platform/platform";
import { bootstrapSuperAdmin } from "../platform/bootstrap";
import { httpDepsOf } from "../platform/http-deps";
import { createApp } from "./app";
import { warmConsole } from "./console-routes";

/** How long SIGTERM lets in-flight requests and uploads finish before cutting them off. */
const DRAIN_MS = 20_000;

const config = loadConfig();
const platform = createPlatform({ config });
const { logger } = platform;
await bootstrapSuperAdmin(platform);
const app = createApp(httpDepsOf(platform));

const server = Bun.serve({
  port: config.port,
  hostname: config.host,
  // The MCP event stream must outlive the default idle timeout.
  idleTimeout: 255,
  fetch: (req, srv) => app.fetch(req, { server: srv }),
});
platform.start();
// After the listener: the console bundle builds in the background and never delays /health.
setTimeout(warmConsole, 0);
logger.info(
  { url: `http://${server.hostname}:${server.port}`, dataDir: config.dataDir, pid: process.pid },
  `listening on http://${server.hostname}:${server.port}`,
);
logger.flush();

let stopping = false;
/**
 * SIGTERM/SIGINT: readiness turns 503, the listener closes (no new connections), in-flight requests finish (at most
 * DRAIN_MS), the job executor stops after the jobs it is running, every WAL is checkpointed and every database closed.
 */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal, inFlight: server.pendingRequests }, "draining");
  platform.drain();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cut = new Promise<boolean>((r) => {
    timer = setTimeout(() => r(true), DRAIN_MS);
  });
  const timedOut = await Promise.race([server.stop(false).then(() => false), cut]);
  clearTimeout(timer);
  if (timedOut) {
    logger.warn({ inFlight: server.pendingRequests }, `requests still running after ${DRAIN_MS} ms: closing them`);
    await server.stop(true);
  }
  try {
    await platform.stop();
  } catch (e) {
    // A failed checkpoint or close must not leave a half-stopped process behind: say so and exit non-zero.
    logger.error({ err: e }, "shutdown failed");
    logger.flush(() => process.exit(1));
    return;
  }
  logger.info("stopped: databases checkpointed and closed");
  logger.flush(() => process.exit(0));
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
