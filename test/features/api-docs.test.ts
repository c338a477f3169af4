import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { operationIdOf } from "../../app/http/api-docs";
import { startTestServer, type TestServer } from "../harness/server";
import { ROOT } from "../harness/spawned";

type Op = { operationId?: string; security?: unknown[] };
let s: TestServer;
let doc: { openapi: string; paths: Record<string, Record<string, Op>> };
const scratch = mkdtempSync(join(tmpdir(), "pms-openapi-"));

beforeAll(async () => {
  s = await startTestServer();
  doc = (await (await s.req("GET", "/v3/api-docs")).json()) as typeof doc;
});
afterAll(async () => {
  await s.close();
  rmSync(scratch, { recursive: true, force: true });
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );

describe("the API document and page", () => {
  test("every operation has a unique operationId; public routes declare security: [], every other one a scheme", () => {
    expect(doc.openapi).toBe("3.1.0");
    const ops = operations();
    expect(ops.length).toBeGreaterThan(100);
    expect(ops.filter((o) => !o.op.operationId)).toEqual([]);
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
    const publicOps = ops.filter((o) => Array.isArray(o.op.security) && o.op.security.length === 0);
    expect(publicOps.map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      [
        "post /api/auth/login",
        "post /api/auth/password/forgot",
        "post /api/auth/password/reset",
        "post /api/auth/refresh",
        "get /api/auth/sso/{connection}/authorize",
        "get /api/auth/sso/callback",
        "get /api/auth/sso/connections",
        "post /api/auth/sso/exchange",
      ].sort(),
    );
    expect(ops.filter((o) => !Array.isArray(o.op.security))).toEqual([]);
    expect(operationIdOf("get", "/api/a/tasks/{id}")).toBe("getTasksById");
    expect(operationIdOf("post", "/api/admin/process-roles")).toBe("postAdminProcessRoles");
  });

  test("the interactive page loads nothing from another origin: its assets come from the swagger-ui-dist package", async () => {
    const page = await (await s.req("GET", "/swagger-ui")).text();
    const refs = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(2);
    for (const ref of refs) {
      expect(ref).toStartWith("/swagger-ui/");
      const res = await s.req("GET", ref);
      expect({ ref, status: res.status }).toEqual({ ref, status: 200 });
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(20);
    }
    expect(page).not.toMatch(/https?:\/\//);
    expect((await s.req("GET", "/swagger-ui/../../package.json")).status).toBe(404);
    expect((await s.req("GET", "/swagger-ui/index.html")).status).toBe(404);
  });

  test("a typed client generated with openapi-typescript compiles, and a wrong call does not", async () => {
    const types = astToString(await openapiTS(doc as never));
    writeFileSync(join(scratch, "api.d.ts"), types);
    const client = (body: string) => `import type { paths } from "./api";
type LoginBody = paths["/api/auth/login"]["post"]["requestBody"]["content"]["application/json"];
type Task = paths["/api/a/tasks/{id}"]["get"]["responses"]["200"]["content"]["application/json"];
export const login: LoginBody = ${body};
export const nameOf = (t: Task): string => t.name;
`;
    const tsc = (file: string) =>
      Bun.spawnSync(
        [
          join(ROOT, "node_modules/.bin/tsc"),
          "--noEmit",
          "--strict",
          "--skipLibCheck",
          "--target",
          "es2022",
          "--module",
          "esnext",
          "--moduleResolution",
          "bundler",
          file,
        ],
        { cwd: scratch },
      );
    writeFileSync(join(scratch, "good.ts"), client(`{ email: "a@b.c", password: "secret" }`));
    const good = tsc("good.ts");
    expect(good.stdout.toString()).toBe("");
    expect(good.exitCode).toBe(0);
    writeFileSync(join(scratch, "bad.ts"), client(`{ email: 42 }`));
    expect(tsc("bad.ts").exitCode).not.toBe(0);
  }, 60_000);

  // The engine of `redocly lint` (@redocly/openapi-core, here through openapi-typescript) with the CLI's default
  // "recommended" rules: errors fail the test, warnings (no license, two paths a router could confuse) are listed.
  test("redocly lint (recommended rules) reports 0 errors on /v3/api-docs", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "/v3/api-docs.json", config });
    expect(problems.length).toBeGreaterThan(0); // the linter ran: it always finds the missing license (a warning)
    const errors = problems.filter((p) => p.severity === "error");
    expect(errors.map((e) => `${e.ruleId}: ${e.message} at ${e.location[0]?.pointer}`)).toEqual([]);
  });
});
