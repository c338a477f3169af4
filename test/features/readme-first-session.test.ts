import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, type SpawnedServer, spawnServer } from "../harness/spawned";

/** The fenced `sh` block under README.md's "A first session" heading, exactly as a reader copies it. */
function firstSessionBlock(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## A first session"));
  const block = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (!block) throw new Error("README.md has no sh block under '## A first session'");
  return block;
}

/** Waits until `lines` holds a line matching `re` (the banner follows the listening line). */
async function lineMatching(lines: string[], re: RegExp): Promise<RegExpExecArray> {
  for (let i = 0; i < 200; i++) {
    for (const l of lines) {
      const m = re.exec(l);
      if (m) return m;
    }
    await Bun.sleep(25);
  }
  throw new Error(`no line matching ${re}: ${lines.join("\n")}`);
}

describe("the README's first session", () => {
  let srv: SpawnedServer;
  beforeAll(async () => {
    // A first start exactly as `npm start` makes it: the default admin e-mail and a generated password.
    srv = await spawnServer({ env: { BOOTSTRAP_ADMIN_EMAIL: undefined, BOOTSTRAP_ADMIN_PASSWORD: undefined } });
  });
  afterAll(() => srv.proc.kill());

  test("the start banner names the URL, the console and the generated admin password once", async () => {
    await lineMatching(srv.lines, /running at http:\/\/127\.0\.0\.1:\d+/);
    expect(srv.lines.some((l) => /^\s+console\s+http:\/\/127\.0\.0\.1:\d+\/$/.test(l))).toBe(true);
    expect(srv.lines.some((l) => /^\s+e-mail\s+admin@localhost$/.test(l))).toBe(true);
    const [, password] = await lineMatching(srv.lines, /^\s+password\s+(\S+)$/);
    expect(password.length).toBeGreaterThanOrEqual(12);
  });

  test("runs word for word in bash and ends with the task and the instance completed", async () => {
    const [, password] = await lineMatching(srv.lines, /^\s+password\s+(\S+)$/);
    const cwd = mkdtempSync(join(tmpdir(), "pms-readme-"));
    const proc = Bun.spawn(["bash", "-e", "-c", firstSessionBlock()], {
      cwd,
      env: { ...process.env, BASE: srv.base, ADMIN_PASSWORD: password },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect({ code, err }).toEqual({ code: 0, err: "" });
    const lines = out.trim().split("\n");
    expect(lines).toEqual([
      "signed in as admin@localhost",
      expect.stringMatching(/^tenant acme created \([0-9a-f-]{36}\), provisioning\.\.\.$/),
      "tenant acme is ACTIVE",
      // Its own model carries a diagram: no "no diagram" warning.
      "deployed hello, version 1, 0 warnings",
      expect.stringMatching(/^started instance [0-9a-f-]{36}$/),
      expect.stringMatching(/^open task: Say hello \([0-9a-f-]{36}\)$/),
      "task COMPLETED",
      "instance COMPLETED",
    ]);
  }, 60_000);
});
