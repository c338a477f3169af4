import pino, { type Logger } from "pino";

export type { Logger };

/**
 * The service's one logger: JSON lines on stdout (one object a line, for a collector), human-readable when stdout is a
 * terminal. Field names that carry secrets are redacted wherever they appear, as a second line of defence: the access
 * log itself only ever writes the fields it names.
 */
export function createLogger(opts: { level?: string; pretty?: boolean; destination?: pino.DestinationStream } = {}) {
  const options: pino.LoggerOptions = {
    level: opts.level || "info",
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        "password",
        "*.password",
        "token",
        "*.token",
        "accessToken",
        "refreshToken",
        "authorization",
        "*.authorization",
        "headers.authorization",
        "headers.cookie",
        'headers["x-api-key"]',
        "apiKey",
        "secret",
        "*.secret",
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
  return pino(options, pino.destination({ dest: 1, sync: false }));
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
