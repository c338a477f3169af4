import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runtimeEnv } from "../../scripts/runtime-env";

// The allocator's settings (scripts/runtime.env) are read by the process when it starts: `npm start` exports them, the
// container sets them with ENV. Both are checked here against the file, so a setting added there reaches both.

const ROOT = resolve(import.meta.dir, "../..");

/** Runs scripts/start.sh with a `bun` on PATH that prints the settings it was started with, instead of the service. */
function startScriptEnv(env: Record<string, string>): Record<string, string> {
  const bin = mkdtempSync(join(tmpdir(), "pms-start-"));
  writeFileSync(join(bin, "bun"), '#!/bin/sh\nenv\necho "ARGS=$*"\n');
  chmodSync(join(bin, "bun"), 0o755);
  const run = Bun.spawnSync(["sh", "scripts/start.sh"], {
    cwd: ROOT,
    env: { ...env, PATH: `${bin}:${process.env.PATH}` },
  });
  expect(run.exitCode).toBe(0);
  const lines = run.stdout.toString().trim().split("\n");
  return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
}

describe("the service's process settings", () => {
  const settings = runtimeEnv();

  test("scripts/runtime.env holds the allocator's setting", () => {
    expect(settings).toEqual({ MIMALLOC_PURGE_HOLES: "0" });
  });

  test("npm start exports each setting before it starts the server", () => {
    const seen = startScriptEnv({});
    expect(seen.ARGS).toBe("app/http/serve.ts");
    for (const [key, value] of Object.entries(settings)) expect(seen[key]).toBe(value);
  });

  test("a value the caller set wins over the file's", () => {
    const seen = startScriptEnv({ MIMALLOC_PURGE_HOLES: "1" });
    expect(seen.MIMALLOC_PURGE_HOLES).toBe("1");
  });

  test("the container sets the same values", () => {
    const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
    const env = [...dockerfile.matchAll(/^ENV (.+)$/gm)].flatMap((m) => m[1].split(/\s+/));
    for (const [key, value] of Object.entries(settings)) expect(env).toContain(`${key}=${value}`);
  });
});
