import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { basic, type Listening, rawInitialize, startListening } from "../harness/mcp";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { BASIC_CACHE_MS } from "../../app/services/auth/basic";
import { LOGIN_LIMIT_PER_IP } from "../../app/services/auth/login";

// MCP's verified Basic credential slides with use (issue 28, part 7): a busy session is not hashed again every
// BASIC_CACHE_MS, an idle one is. Whether the password was checked again is seen through the login limiter: once
// this address has used up its login attempts, a check answers 429, a remembered credential still 200.
let L: Listening;
let sa: string;
let tenant: { id: string; slug: string };

beforeAll(async () => {
  L = await startListening();
  sa = await saToken(L.s);
  tenant = await createTenant(L.s, "basic-slide", sa);
});
afterAll(() => L?.close());

const init = (email: string, password: string) =>
  rawInitialize(L.url, { authorization: basic(email, password), "x-tenant-id": tenant.slug });

/** Spends this address's login attempts (unknown e-mails: no password is hashed for them). */
async function exhaustLogins() {
  for (let i = 0; i < LOGIN_LIMIT_PER_IP; i++)
    await fetch(new URL("/api/auth/login", L.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `nobody-${i}@example.test`, password: "whatever-123" }),
    });
}

describe("the remembered Basic credential slides with use", () => {
  test("used within BASIC_CACHE_MS each time, it outlives BASIC_CACHE_MS without the password being checked again", async () => {
    const u = await userInTenant(L.s, tenant, "USER", sa);
    L.s.clock.advance(61_000);
    expect((await init(u.email, u.password)).status).toBe(200);
    const step = BASIC_CACHE_MS - 60_000;
    L.s.clock.advance(step);
    expect((await init(u.email, u.password)).status).toBe(200);
    L.s.clock.advance(step); // now past BASIC_CACHE_MS since the password was checked, within it since the last use
    await exhaustLogins();
    expect((await init(u.email, u.password)).status).toBe(200);
  });

  test("a slid credential is still refused at once when its user is deactivated", async () => {
    sa = await saToken(L.s);
    const u = await userInTenant(L.s, tenant, "USER", sa);
    L.s.clock.advance(16 * 60_000); // past every window and backoff of the previous test
    expect((await init(u.email, u.password)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      L.s.clock.advance(BASIC_CACHE_MS - 60_000);
      expect((await init(u.email, u.password)).status).toBe(200);
    }
    expect((await L.s.req("DELETE", `/api/admin/users/${u.id}`, { token: sa })).status).toBeLessThan(300);
    await expectError(await init(u.email, u.password), 401);
  });

  test("idle for BASIC_CACHE_MS, the credential is checked again", async () => {
    sa = await saToken(L.s);
    const u = await userInTenant(L.s, tenant, "USER", sa);
    L.s.clock.advance(16 * 60_000); // past every window and backoff of the previous test
    expect((await init(u.email, u.password)).status).toBe(200);
    L.s.clock.advance(BASIC_CACHE_MS + 1);
    await exhaustLogins();
    // Checked again, the password meets the spent limiter: a remembered credential would have answered 200.
    await expectError(await init(u.email, u.password), 429);
  });
});
