import type { Server } from "bun";
import { loadConfig } from "../platform/config";
import { startBanner } from "./start-banner";

/** How long SIGTERM lets in-flight requests and uploads finish before cutting them off. */
const DRAIN_MS = 20_000;

const config = loadConfig();

// Listen first, load second: the modules of the whole service take ~0.6 s to load, and an orchestrator (or `npm
// start`'s user) should see a live process at once. Until the service is up, `/health` (liveness) answers UP and
// `/health/ready` 503 with phase "starting", as the service's own routes do; any other request waits for the service
// rather than being refused.
type Handler = (req: Request, server: Server<undefined>) => Response | Promise<Response>;
let handler: Handler | undefined;
let resolveHandler!: (h: Handler) => void;
const handlerReady = new Promise<Handler>((r) => {
  resolveHandler = r;
});
function whileStarting(req: Request, srv: Server<undefined>): Response | Promise<Response> {
  const path = new URL(req.url).pathname;
  if (path === "/health") return Response.json({ status: "UP" });
  if (path === "/health/ready")
    return Response.json({ status: "DOWN", phase: "starting", checks: {} }, { status: 503 });
  return handlerReady.then((h) => h(req, srv));
}

const server = Bun.serve({
  port: config.port,
  hostname: config.host,
  // The MCP event stream must outlive the default idle timeout.
  idleTimeout: 255,
  fetch: (req, srv) => (handler ?? whileStarting)(req, srv),
});

const { startService } = await import("../platform/service");
const { platform, fetch, admin } = await startService(config);
handler = fetch;
resolveHandler(fetch);
const { logger } = platform;
logger.info(
  { url: `http://${server.hostname}:${server.port}`, dataDir: config.dataDir, pid: process.pid },
  `listening on http://${server.hostname}:${server.port}`,
);
logger.flush();
process.stdout.write(startBanner(`http://${server.hostname}:${server.port}`, config.dataDir, admin));

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
