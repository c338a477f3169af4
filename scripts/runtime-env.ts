import { readFileSync } from "node:fs";

/** `KEY=value` entries as an environment object; anything else (comments, blank lines) is skipped. */
export function settingsOf(entries: string[]): Record<string, string> {
  const settings = entries.filter((e) => /^[A-Z_][A-Z0-9_]*=/.test(e));
  return Object.fromEntries(settings.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
}

/** The process settings `npm start` gives the service (scripts/runtime.env). */
export function runtimeEnv(): Record<string, string> {
  return settingsOf(readFileSync(new URL("./runtime.env", import.meta.url), "utf8").split("\n"));
}
