import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, login, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let tenantA: { id: string; slug: string };
let _tenantB: { id: string; slug: string };
let _userA: Awaited<ReturnType<typeof userInTenant>>;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  tenantA = await createTenant(s, "alpha", sa);
  _tenantB = await createTenant(s, "beta", sa);
  _userA = await userInTenant(s, tenantA, "USER", sa);
});
afterAll(() => s.close());

const _b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

describe("password reset", () => {
  test("forgot always answers 202, mails a token only to a registered address, and reset sets the password", async () => {
    const sa = await saToken(s);
    const email = "forgetful@test.local";
    await s.req("POST", "/api/admin/users", { token: sa, json: { email, password: "old-password-1", firstName: "F" } });
    const other = await login(s, email, "old-password-1");
    const mailsBefore = s.mails.length;
    expect(
      (await s.req("POST", "/api/auth/password/forgot", { json: { email: "ghost@test.local" }, ip: "10.5.0.1" }))
        .status,
    ).toBe(202);
    await s.platform.idle();
    expect(s.mails.length).toBe(mailsBefore);
    expect((await s.req("POST", "/api/auth/password/forgot", { json: { email }, ip: "10.5.0.1" })).status).toBe(202);
    // The mail goes out after the answer (so the answer's timing tells nothing about the address).
    await s.platform.idle();
    const mail = s.mails.at(-1)!;
    expect(mail.to).toBe(email);
    const token = mail.text
      .split("\n")
      .find((l) => /^[A-Za-z0-9_-]{30,}$/.test(l.trim()))!
      .trim();
    // The token is stored hashed: its text appears nowhere in the platform database.
    const raw = s.platform.platformSqlite.query("select hash from password_resets").all() as { hash: string }[];
    expect(raw.some((r) => r.hash === token)).toBe(false);
    await expectError(await s.req("POST", "/api/auth/password/reset", { json: { token, newPassword: "short" } }), 400);
    expect(
      (await s.req("POST", "/api/auth/password/reset", { json: { token, newPassword: "new-password-1" } })).status,
    ).toBe(200);
    await expectError(
      await s.req("POST", "/api/auth/password/reset", { json: { token, newPassword: "new-password-2" } }),
      400,
    );
    await expectError(await s.req("POST", "/api/auth/login", { json: { email, password: "old-password-1" } }), 401);
    expect((await s.req("POST", "/api/auth/login", { json: { email, password: "new-password-1" } })).status).toBe(200);
    // Resetting ends the sessions opened with the old password.
    await expectError(await s.req("POST", "/api/auth/refresh", { json: { refreshToken: other.refreshToken } }), 401);
  });

  test("forgot is rate limited per IP", async () => {
    const ip = "10.6.0.1";
    for (let i = 0; i < 5; i++)
      expect((await s.req("POST", "/api/auth/password/forgot", { json: { email: "a@b.c" }, ip })).status).toBe(202);
    await expectError(await s.req("POST", "/api/auth/password/forgot", { json: { email: "a@b.c" }, ip }), 429);
  });
});
