import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runtimeEnv, settingsOf } from "../../scripts/runtime-env";

// The allocator's settings (scripts/runtime.env) are read by the process when it starts: `npm start` exports them, the
// container sets them with ENV. Both are checked here against the file, so a setting added there reaches both.

const ROOT = resolve(import.meta.dir, "../..");

/**
 * Runs scripts/start.sh (from the repository, so its dependency check passes) with a `bun` on PATH that prints the
 * settings it was started with, instead of the service. With `runtimeFile`, a copy of the script reads that text as
 * its runtime.env.
 */
function startScriptEnv(env: Record<string, string>, runtimeFile?: string): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "pms-start-"));
  try {
    writeFileSync(join(dir, "bun"), '#!/bin/sh\nenv\necho "ARGS=$*"\n');
    chmodSync(join(dir, "bun"), 0o755);
    let script = "scripts/start.sh";
    if (runtimeFile !== undefined) {
      script = join(dir, "start.sh");
      writeFileSync(script, readFileSync(join(ROOT, "scripts/start.sh")));
      writeFileSync(join(dir, "runtime.env"), runtimeFile);
    }
    const run = Bun.spawnSync(["sh", script], { cwd: ROOT, env: { ...env, PATH: `${dir}:${process.env.PATH}` } });
    expect(run.stderr.toString()).toBe("");
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.toString().trim().split("\n");
    return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the service's process settings", () => {
  const settings = runtimeEnv();

  test("scripts/runtime.env holds the allocator's setting", () => {
    expect(settings).toMatchObject({ MIMALLOC_PURGE_HOLES: "0" });
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

  test("lines that are not KEY=value are skipped alike by npm start and the benches; a last line without newline counts", () => {
    const text = "  # an indented comment\nNOT A KEY = 1\nexport B=2\n\nFIRST_SETTING=a=b\nLAST_SETTING=1";
    const seen = startScriptEnv({}, text);
    expect(seen.ARGS).toBe("app/http/serve.ts");
    expect(seen.FIRST_SETTING).toBe("a=b");
    expect(seen.LAST_SETTING).toBe("1");
    expect(seen.B).toBeUndefined();
    expect(Object.keys(seen).filter((k) => k.includes(" ") || k.includes("#"))).toEqual([]);
    expect(settingsOf(text.split("\n"))).toEqual({ FIRST_SETTING: "a=b", LAST_SETTING: "1" });
    expect(settingsOf(["CRLF_SETTING=0\r"])).toEqual({ CRLF_SETTING: "0" });
  });

  test("the container sets the same values", () => {
    const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
    const env = [...dockerfile.matchAll(/^ENV (.+)$/gm)].flatMap((m) => m[1].split(/\s+/));
    for (const [key, value] of Object.entries(settings)) expect(env).toContain(`${key}=${value}`);
  });
});
