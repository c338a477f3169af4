import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLogger } from "../../app/platform/observability/logger";
import { httpDepsOf } from "../../app/platform/http-deps";
import { createApp } from "../../app/http/app";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { SA_PASSWORD, startTestServer, type TestServer } from "../harness/server";

/** The access log as parsed lines, captured from the platform's own logger. */
function sink() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  return {
    lines,
    raw,
    destination: {
      write(s: string) {
        raw.push(s);
        lines.push(JSON.parse(s));
      },
    },
  };
}

let s: TestServer;
const log = sink();
let tenant: { id: string; slug: string };
let admin: string;

beforeAll(async () => {
  s = await startTestServer({ logger: createLogger({ destination: log.destination }) });
  tenant = await createTenant(s, "ops");
  admin = (await userInTenant(s, tenant, "ADMIN")).token;
});
afterAll(() => s.close());

const requestLines = () => log.lines.filter((l) => l.msg === "request");

describe("logs", () => {
  test("X-Request-Id is taken from the caller, returned, and names the access log line", async () => {
    const res = await s.req("GET", "/api/a/api-keys", { token: admin, headers: { "x-request-id": "trace-42.a" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("trace-42.a");
    const line = requestLines().find((l) => l.requestId === "trace-42.a");
    expect(line).toMatchObject({
      method: "GET",
      route: "/api/a/api-keys",
      status: 200,
      tenant: tenant.id,
      level: 30,
    });
    expect(String(line?.actor)).toStartWith("user:");
    expect(typeof line?.durationMs).toBe("number");
  });

  test("a request without an id, or with one that could break a log line, gets a fresh one", async () => {
    const plain = await s.req("GET", "/health");
    expect(plain.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const forged = await s.req("GET", "/health", { headers: { "x-request-id": 'x" {"level":60}' } });
    const id = forged.headers.get("x-request-id") ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(log.raw.join("")).not.toContain('{"level":60}');
  });

  test("refusals are logged with their status and the route pattern, not the raw path", async () => {
    const res = await s.req("GET", "/api/a/tasks/no-such-task", { token: admin, headers: { "x-request-id": "r404" } });
    expect(res.status).toBe(404);
    expect(requestLines().find((l) => l.requestId === "r404")).toMatchObject({
      route: "/api/a/tasks/:id",
      status: 404,
    });
    await s.req("GET", "/api/a/api-keys", { headers: { "x-request-id": "r401" } });
    const refused = requestLines().find((l) => l.requestId === "r401");
    expect(refused).toMatchObject({ status: 401 });
    expect(refused && "actor" in refused).toBe(false);
  });

  test("secrets never reach the log: passwords, tokens, API keys", async () => {
    const before = log.raw.length;
    const login = await s.req("POST", "/api/auth/login", {
      json: { email: "admin@test.local", password: SA_PASSWORD },
      headers: { "x-api-key": "pms_secret_key_value" },
    });
    const { accessToken, refreshToken } = (await login.json()) as { accessToken: string; refreshToken: string };
    await s.req("GET", "/api/auth/me?token=query-secret", { token: accessToken });
    const text = log.raw.slice(before).join("");
    expect(text).toContain('"route":"/api/auth/login"');
    for (const secret of [SA_PASSWORD, accessToken, refreshToken, "pms_secret_key_value", "query-secret"]) {
      expect(text).not.toContain(secret);
    }
  });

  test("an unexpected error answers 500 and is logged at error level with the request id", async () => {
    const deps = httpDepsOf(s.platform);
    const broken = createApp({
      ...deps,
      ports: {
        ...deps.ports,
        // The directory's own methods, but a lookup that fails the way a broken disk would.
        tenants: Object.assign(Object.create(deps.ports.tenants), {
          get: () => {
            throw new Error("disk on fire");
          },
        }),
      },
    });
    const res = await broken.request(
      "/api/a/api-keys",
      { headers: { authorization: `Bearer ${admin}`, "x-request-id": "boom-1" } },
      { ip: "10.0.0.1" },
    );
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain("disk on fire");
    const err = log.lines.find((l) => l.level === 50 && l.requestId === "boom-1");
    expect(err?.msg).toBe("unhandled error");
    expect(JSON.stringify(err)).toContain("disk on fire");
    expect(requestLines().find((l) => l.requestId === "boom-1")).toMatchObject({ status: 500 });
  });
});

describe("metrics", () => {
  test("GET /metrics answers Prometheus text with requests by route and status and the engine's figures", async () => {
    await s.req("GET", "/api/a/api-keys", { token: admin });
    const res = await s.req("GET", "/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/a\/api-keys",status="200"\} \d+/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/a\/tasks\/:id",status="404"\} 1/,
    );
    for (const name of ["jobs_due", "jobs_lag_seconds", "jobs_running", "jobs_dead_letters", "jobs_failures"]) {
      expect(text).toMatch(new RegExp(`^${name} \\d`, "m"));
    }
    expect(text).toMatch(/^tenant_databases_open [1-9]/m);
    expect(text).toMatch(/^sqlite_wal_bytes\{db="tenants"\} [1-9]/m);
  });

  test("with METRICS_TOKEN set, /metrics requires exactly that bearer token", async () => {
    const guarded = await startTestServer({ env: { METRICS_TOKEN: "scrape-me" } });
    try {
      expect((await guarded.req("GET", "/metrics")).status).toBe(401);
      expect((await guarded.req("GET", "/metrics", { token: "scrape-mf" })).status).toBe(401);
      // A user's token is no metrics token.
      expect((await guarded.req("GET", "/metrics", { token: await saToken(guarded) })).status).toBe(401);
      const ok = await guarded.req("GET", "/metrics", { token: "scrape-me" });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain("http_request_duration_seconds");
    } finally {
      await guarded.close();
    }
  });
});

describe("readiness", () => {
  test("/health/ready is 503 while starting, 200 once started, 503 again while draining; /health stays 200", async () => {
    const r = await startTestServer();
    try {
      const ready = async () => (await r.req("GET", "/health/ready")).status;
      expect(await ready()).toBe(503);
      r.platform.start();
      expect(await ready()).toBe(200);
      const body = (await (await r.req("GET", "/health/ready")).json()) as { checks: Record<string, string> };
      expect(body.checks).toEqual({ platformDb: "UP", engineDb: "UP", jobExecutor: "UP" });
      r.platform.drain();
      expect(await ready()).toBe(503);
      expect((await r.req("GET", "/health")).status).toBe(200);
    } finally {
      await r.close();
    }
  });

  test("a stopped job executor makes the service not ready", async () => {
    const r = await startTestServer();
    try {
      r.platform.start();
      await r.platform.processRuntime.stop();
      const res = await r.req("GET", "/health/ready");
      expect(res.status).toBe(503);
      expect(((await res.json()) as { checks: Record<string, string> }).checks.jobExecutor).toBe("DOWN");
    } finally {
      await r.close();
    }
  });
});
