import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

// Password checks (argon2id, a core for ~340 ms each) are admitted a bounded number at a time and wait in turn per
// caller (issue 28, part 7): here one at a time, one waiting per address (PASSWORD_HASH_CONCURRENCY=1,
// PASSWORD_HASH_QUEUE_PER_KEY=1).
let s: TestServer;
let user: { email: string; password: string };

beforeAll(async () => {
  s = await startTestServer({ env: { PASSWORD_HASH_CONCURRENCY: "1", PASSWORD_HASH_QUEUE_PER_KEY: "1" } });
  const sa = await saToken(s);
  const t = await createTenant(s, "hashing", sa);
  user = await userInTenant(s, t, "USER", sa);
});
afterAll(() => s.close());

const login = (ip: string) =>
  s.req("POST", "/api/auth/login", { ip, json: { email: user.email, password: user.password } });

async function until(check: () => boolean) {
  for (let i = 0; i < 5000 && !check(); i++) await Bun.sleep(2);
  expect(check()).toBe(true);
}

describe("password checks", () => {
  test("run a bounded number at a time; a caller's burst past its queue gets 429 while another caller is served", async () => {
    const gate = s.platform.limiters.passwordHashing;
    // The one slot is taken first (a check of a third caller, held), so the order of what follows is fixed.
    let releaseHeld!: () => void;
    const held = gate.admit("ip:10.9.9.9", () => new Promise<void>((r) => (releaseHeld = r)));
    let most = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        most = Math.max(most, gate.runningNow());
        await new Promise((r) => setImmediate(r));
      }
    })();
    let settled = 0;
    const burst = Array.from({ length: 5 }, () => login("10.1.1.1").finally(() => settled++));
    const other = login("10.2.2.2");
    // One of the burst waits in its caller's queue; the four others are refused at once, before any check ran.
    await until(() => settled === 4 && gate.load("ip:10.2.2.2").waiting === 1);
    expect(gate.load("ip:10.1.1.1")).toEqual({ running: 0, waiting: 1 });
    releaseHeld();
    await held;
    const answers = await Promise.all(burst);
    const otherAnswer = await other;
    watching = false;
    await watch;

    expect(answers.map((r) => r.status).sort()).toEqual([200, 429, 429, 429, 429]);
    const refused = answers.find((r) => r.status === 429) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await expectError(refused, 429, /password checks/);
    // Another address waits in its own turn and is served.
    expect(otherAnswer.status).toBe(200);
    expect(most).toBe(1);
  });
});
