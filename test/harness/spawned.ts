import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";

export const ROOT = resolve(import.meta.dir, "../..");
export const SPAWN_SA = { email: "sa@spawned.test", password: "spawned-password-1" };

export interface SpawnedServer {
  base: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  dataDir: string;
  /** Every stdout line so far (JSON log lines). */
  lines: string[];
  exited: Promise<number>;
}

/**
 * The real service as a child process (`cmd`, by default `bun app/http/serve.ts`) on port 0, resolved once its
 * "listening" log line names the address.
 */
export async function spawnServer(
  opts: { dataDir?: string; cmd?: string[]; env?: Record<string, string | undefined> } = {},
): Promise<SpawnedServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "pms-spawn-"));
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    BOOTSTRAP_ADMIN_EMAIL: SPAWN_SA.email,
    BOOTSTRAP_ADMIN_PASSWORD: SPAWN_SA.password,
    JWT_SECRET: "spawned-secret-with-enough-entropy-0123456789",
    ...opts.env,
  };
  // A setting given as undefined is removed (a first start with a generated password, say).
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const proc = Bun.spawn(opts.cmd ?? [process.execPath, "app/http/serve.ts"], {
    cwd: ROOT,
    env: env as Record<string, string>,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const base = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no listening line: ${lines.join("\n")}`)), 20_000);
    (async () => {
      const decoder = new TextDecoder();
      let buf = "";
      const reader = proc.stdout.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += decoder.decode(value);
        let nl = buf.indexOf("\n");
        while (nl >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          lines.push(line);
          const url = /"url":"(http:[^"]+)"/.exec(line)?.[1];
          if (url) {
            clearTimeout(timer);
            ok(url);
          }
          nl = buf.indexOf("\n");
        }
      }
    })();
  });
  return { base, proc, dataDir, lines, exited: proc.exited };
}

async function post(base: string, path: string, body: unknown, token?: string) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Logs the SUPER_ADMIN in; creates tenant `slug` (waiting until it is ACTIVE) unless it exists; returns a tenant token of the SA as its ADMIN. */
export async function adminTokenOf(base: string, slug: string): Promise<string> {
  const login = await post(base, "/api/auth/login", SPAWN_SA);
  const sa = login.body.accessToken as string;
  const created = await post(base, "/api/admin/tenants", { slug, name: slug }, sa);
  if (created.status === 202) {
    const id = created.body.id as string;
    for (let i = 0; i < 100; i++) {
      const t = await fetch(`${base}/api/admin/tenants/${id}`, { headers: { authorization: `Bearer ${sa}` } });
      if (((await t.json()) as { status: string }).status === "ACTIVE") break;
      await Bun.sleep(100);
    }
    await post(base, `/api/admin/tenants/${id}/members`, { userId: login.body.user.id, role: "ADMIN" }, sa);
  }
  const selected = await post(base, "/api/auth/select-tenant", { tenantSlug: slug }, sa);
  return selected.body.accessToken as string;
}
