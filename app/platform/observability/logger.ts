import pino, { type Logger } from "pino";

export type { Logger };

/**
 * The service's one logger: JSON lines on stdout (one object a line, for a collector), human-readable when stdout is a
 * terminal. Field names that carry secrets are redacted wherever they appear, as a second line of defence: the access
 * log itself only ever writes the fields it names.
 */
export function createLogger(
  opts: { level?: string; pretty?: boolean; destination?: pino.DestinationStream; file?: string } = {},
) {
  const options: pino.LoggerOptions = {
    level: opts.level || "info",
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      // Exact paths only: wildcard paths cost several µs on every line.
      paths: [
        "password",
        "token",
        "accessToken",
        "refreshToken",
        "authorization",
        "apiKey",
        "secret",
        "headers.authorization",
        "headers.cookie",
        'headers["x-api-key"]',
      ],
      censor: "[redacted]",
    },
  };
  const usePretty = opts.pretty ?? (!opts.destination && process.stdout.isTTY === true);
  if (opts.destination) return pino(options, opts.destination);
  if (usePretty) {
    const pretty = prettyStream();
    if (pretty) return pino(options, pretty);
  }
  return pino(options, buffered(opts.file ?? 1));
}

/**
 * Lines are written in 4 KiB batches (one system call per batch, not per request: the access log costs little under
 * load) and flushed at least every 200 ms, so a quiet service's lines are not held back; `logger.flush` at shutdown.
 */
function buffered(dest: string | number) {
  const stream = pino.destination({ dest, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      stream.flush();
    } catch {
      // not open yet: the next tick flushes
    }
  }, 200).unref();
  return stream;
}

/** pino-pretty is a development dependency (not in the production image): loaded only for a terminal, if present. */
function prettyStream(): pino.DestinationStream | null {
  try {
    const pretty = require("pino-pretty") as typeof import("pino-pretty");
    return pretty({ colorize: true, translateTime: "SYS:HH:MM:ss.l", sync: true });
  } catch {
    return null;
  }
}

/** The platform's `log(message)` (subsystems' one-line messages) on top of the logger; `[tag] text` keeps its tag. */
export function messageLog(logger: Logger): (message: string) => void {
  return (message) => {
    const m = /^\[([\w-]+)\]\s*(.*)$/s.exec(message);
    if (m) logger.info({ component: m[1] }, m[2]);
    else logger.info(message);
  };
}
