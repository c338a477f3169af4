import { expect } from "bun:test";
import type { TestServer } from "./server";
import { SA_EMAIL, SA_PASSWORD } from "./server";

export type Role = "ADMIN" | "MODELER" | "MANAGER" | "USER";

export async function login(s: TestServer, email: string, password: string) {
  const res = await s.req("POST", "/api/auth/login", { json: { email, password } });
  expect(res.status).toBe(200);
  return (await res.json()) as { accessToken: string; refreshToken: string; user: { id: string } };
}

export async function saToken(s: TestServer): Promise<string> {
  return (await login(s, SA_EMAIL, SA_PASSWORD)).accessToken;
}

/** Creates a tenant through the API and waits for provisioning; returns its id and slug. */
export async function createTenant(s: TestServer, slug: string, sa?: string) {
  const token = sa ?? (await saToken(s));
  const res = await s.req("POST", "/api/admin/tenants", { token, json: { slug, name: `Tenant ${slug}` } });
  expect(res.status).toBe(202);
  const t = (await res.json()) as { id: string; slug: string };
  await s.platform.idle();
  return t;
}

let userSeq = 0;

/** Creates a user, makes them a member with `role`, logs in and selects the tenant. */
export async function userInTenant(s: TestServer, tenant: { id: string; slug: string }, role: Role, sa?: string) {
  const token = sa ?? (await saToken(s));
  const email = `user${++userSeq}-${role.toLowerCase()}@test.local`;
  const password = "user-password-1";
  const created = await s.req("POST", "/api/admin/users", {
    token,
    json: { email, password, firstName: `U${userSeq}` },
  });
  expect(created.status).toBe(201);
  const user = (await created.json()) as { id: string };
  const m = await s.req("POST", `/api/admin/tenants/${tenant.id}/members`, { token, json: { userId: user.id, role } });
  expect(m.status).toBe(201);
  const session = await login(s, email, password);
  const sel = await s.req("POST", "/api/auth/select-tenant", {
    token: session.accessToken,
    json: { tenantSlug: tenant.slug },
  });
  expect(sel.status).toBe(200);
  const pair = (await sel.json()) as { accessToken: string; refreshToken: string };
  return { id: user.id, email, password, token: pair.accessToken, refreshToken: pair.refreshToken };
}

/** A SUPER_ADMIN token with `tenant` selected. */
export async function saTenantToken(s: TestServer, tenant: { slug: string }) {
  const sa = await saToken(s);
  const sel = await s.req("POST", "/api/auth/select-tenant", { token: sa, json: { tenantSlug: tenant.slug } });
  expect(sel.status).toBe(200);
  return ((await sel.json()) as { accessToken: string }).accessToken;
}

/** Creates an API key in the tenant with the given raw scopes (as an Admin would). */
export async function apiKey(s: TestServer, adminToken: string, scopes: string[], rateLimitPerMinute?: number) {
  const res = await s.req("POST", "/api/a/api-keys", {
    token: adminToken,
    json: { name: "key", scopes, rateLimitPerMinute },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; key: string };
}

/** Asserts the spec's error body. */
export async function expectError(res: Response, status: number, messagePart?: string | RegExp) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.status).toBe(status);
  expect(typeof body.error).toBe("string");
  expect(typeof body.message).toBe("string");
  expect(typeof body.path).toBe("string");
  expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/);
  if (messagePart) expect(String(body.message)).toMatch(messagePart);
  return body;
}
