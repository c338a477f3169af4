import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../app/platform/config";
import { createPlatform, type Platform, type PlatformOptions } from "../../app/platform/platform";
import { bootstrapSuperAdmin } from "../../app/platform/bootstrap";
import { httpDepsOf } from "../../app/platform/http-deps";
import { ManualClock } from "../../app/services/clock";
import { createApp, type App } from "../../app/http/app";
import type { MailMessage } from "../../app/outbound/mailer";

export const SA_EMAIL = "admin@test.local";
export const SA_PASSWORD = "admin-password-1";

export interface TestServer {
  app: App;
  platform: Platform;
  clock: ManualClock;
  dataDir: string;
  mails: MailMessage[];
  logs: string[];
  /** Sends a request; `json` sets the body, `token` the bearer, `apiKey` the X-API-Key, `ip` the client address. */
  req(method: string, path: string, opts?: ReqOpts): Promise<Response>;
  close(): Promise<void>;
}

export interface ReqOpts {
  json?: unknown;
  token?: string;
  apiKey?: string;
  ip?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
}

/** A fresh service on a temporary data folder with a manual clock and captured mail. */
export async function startTestServer(
  overrides: Partial<PlatformOptions> & { env?: Record<string, string> } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "pms-test-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_EMAIL: SA_EMAIL,
    BOOTSTRAP_ADMIN_PASSWORD: SA_PASSWORD,
    JWT_SECRET: "test-secret-with-enough-entropy-0123456789",
    ...overrides.env,
  });
  const clock = new ManualClock(Date.now());
  const mails: MailMessage[] = [];
  const logs: string[] = [];
  const platform = createPlatform({
    config,
    clock,
    log: (m) => logs.push(m),
    mailer: { send: async (m) => void mails.push(m) },
    ...overrides,
  });
  await bootstrapSuperAdmin(platform);
  const app = createApp(httpDepsOf(platform));
  return {
    app,
    platform,
    clock,
    dataDir,
    mails,
    logs,
    req(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      let body = opts.body;
      if (opts.json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(opts.json);
      }
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.apiKey !== undefined) headers["x-api-key"] = opts.apiKey;
      return Promise.resolve(app.request(path, { method, headers, body }, { ip: opts.ip ?? "10.0.0.1" }));
    },
    async close() {
      await platform.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
