import { readFileSync } from "node:fs";

/**
 * `KEY=value` entries as an environment object. An entry whose key is not a plain name (a comment, a blank line,
 * `KEY = 1`) is skipped, as scripts/start.sh skips it; a carriage return ending a line is dropped.
 */
export function settingsOf(entries: string[]): Record<string, string> {
  const settings = entries.map((e) => e.replace(/\r$/, "")).filter((e) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(e));
  return Object.fromEntries(settings.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
}

/** The process settings `npm start` gives the service (scripts/runtime.env). */
export function runtimeEnv(): Record<string, string> {
  return settingsOf(readFileSync(new URL("./runtime.env", import.meta.url), "utf8").split("\n"));
}
