import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { saToken } from "../harness/fixtures";
import type { MailMessage } from "../../app/outbound/mailer";

// A mailer that holds every message until the test releases it: if the answer waited for the mail, it would hang.
let release: () => void = () => {};
const gate = new Promise<void>((r) => (release = r));
const sent: MailMessage[] = [];
const attempts: string[] = [];
let s: TestServer;
const email = "slow-mail@test.local";

beforeAll(async () => {
  s = await startTestServer({
    mailer: {
      send: async (m) => {
        attempts.push(m.to);
        await gate;
        sent.push(m);
      },
    },
  });
  const sa = await saToken(s);
  await s.req("POST", "/api/admin/users", { token: sa, json: { email, password: "slow-pass-1", firstName: "S" } });
});
afterAll(async () => {
  release();
  await s.close();
});

describe("POST /auth/password/forgot answers before it looks the address up", () => {
  test("a registered address gets its 202 while the mail is still blocked, and the mail goes out once released", async () => {
    const res = await s.req("POST", "/api/auth/password/forgot", { json: { email }, ip: "10.9.0.1" });
    expect(res.status).toBe(202);
    const registered = await res.json();
    expect(sent).toEqual([]);
    // The deferred work runs after the answer; it reaches the (blocked) mailer without the request waiting for it.
    await new Promise((r) => setTimeout(r, 20));
    expect(attempts).toEqual([email]);
    expect(sent).toEqual([]);
    release();
    await s.platform.idle();
    expect(sent.map((m) => m.to)).toEqual([email]);

    const unknown = await s.req("POST", "/api/auth/password/forgot", {
      json: { email: "ghost@test.local" },
      ip: "10.9.0.1",
    });
    expect(unknown.status).toBe(202);
    expect(await unknown.json()).toEqual(registered);
    await s.platform.idle();
    expect(attempts).toEqual([email]);
  });
});
