import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { notify } from "../../app/services/notifications/notify";

let s: TestServer;
let tenant: { id: string; slug: string }, other: { id: string; slug: string };
let alice: { id: string; token: string; email: string }, bob: { id: string; token: string }, admin: string;
let aliceElsewhere: string;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  tenant = await createTenant(s, "notes-a", sa);
  other = await createTenant(s, "notes-b", sa);
  alice = await userInTenant(s, tenant, "USER", sa);
  bob = await userInTenant(s, tenant, "USER", sa);
  admin = (await userInTenant(s, tenant, "ADMIN", sa)).token;
  // Alice is also a member of the other tenant: her token there selects that tenant.
  await s.req("POST", `/api/admin/tenants/${other.id}/members`, {
    token: sa,
    json: { userId: alice.id, role: "USER" },
  });
  const login = await (
    await s.req("POST", "/api/auth/login", { json: { email: alice.email, password: "user-password-1" } })
  ).json();
  aliceElsewhere = (
    await (
      await s.req("POST", "/api/auth/select-tenant", { token: login.accessToken, json: { tenantSlug: other.slug } })
    ).json()
  ).accessToken;
});
afterAll(() => s.close());

const send = (userId: string, title: string, tenantId = tenant.id) => {
  s.clock.advance(1000);
  return notify(
    s.platform.platformDb,
    { tenantId, userId, type: "TASK_ASSIGNED", title, body: `Body ${title}`, link: "/tasks/1" },
    s.clock.now(),
  );
};
const list = async (token: string, q = "") => (await s.req("GET", `/api/a/notifications${q}`, { token })).json();

describe("notifications", () => {
  test("lists the caller's notifications of the current tenant, newest first, in the paginated envelope", async () => {
    for (let i = 1; i <= 5; i++) send(alice.id, `a${i}`);
    send(bob.id, "b1");
    send(alice.id, "elsewhere", other.id);
    const page = await list(alice.token, "?page=0&size=2");
    expect(page).toMatchObject({ number: 0, size: 2, totalElements: 5, totalPages: 3 });
    expect(page.content.map((n: { title: string }) => n.title)).toEqual(["a5", "a4"]);
    expect(page.content[0]).toMatchObject({
      type: "TASK_ASSIGNED",
      body: "Body a5",
      link: "/tasks/1",
      read: false,
      readAt: null,
    });
    const last = await list(alice.token, "?page=2&size=2");
    expect(last.content.map((n: { title: string }) => n.title)).toEqual(["a1"]);
    const beyond = await list(alice.token, "?page=9&size=2");
    expect(beyond.content).toEqual([]);
    expect((await list(aliceElsewhere)).content.map((n: { title: string }) => n.title)).toEqual(["elsewhere"]);
  });

  test("keeps insertion order when timestamps are equal", async () => {
    const at = s.clock.now();
    for (const t of ["same1", "same2"])
      notify(s.platform.platformDb, { tenantId: tenant.id, userId: bob.id, type: "X", title: t, body: "" }, at);
    expect((await list(bob.token)).content.slice(0, 2).map((n: { title: string }) => n.title)).toEqual([
      "same2",
      "same1",
    ]);
  });

  test("refuses malformed paging", async () => {
    await expectError(await s.req("GET", "/api/a/notifications?page=-1", { token: alice.token }), 400);
    await expectError(await s.req("GET", "/api/a/notifications?size=abc", { token: alice.token }), 400);
  });

  test("marks one read; the unread filter then leaves it out", async () => {
    const n = send(alice.id, "to-read");
    const res = await s.req("PUT", `/api/a/notifications/${n.id}/read`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: n.id, read: true, readAt: expect.any(String) });
    const unread = await list(alice.token, "?unread=true&size=100");
    expect(unread.content.some((x: { id: string }) => x.id === n.id)).toBe(false);
  });

  test("another user's notification answers 403 and writes nothing", async () => {
    const n = send(bob.id, "bobs");
    await expectError(
      await s.req("PUT", `/api/a/notifications/${n.id}/read`, { token: alice.token }),
      403,
      /another user/,
    );
    const row = s.platform.platformSqlite
      .query<{ read_at: string | null }, [string]>("SELECT read_at FROM notifications WHERE id = ?")
      .get(n.id);
    expect(row!.read_at).toBeNull();
  });

  test("an unknown id, or the caller's own in another tenant, answers 404", async () => {
    await expectError(
      await s.req("PUT", `/api/a/notifications/${crypto.randomUUID()}/read`, { token: alice.token }),
      404,
    );
    const there = send(alice.id, "there", other.id);
    await expectError(await s.req("PUT", `/api/a/notifications/${there.id}/read`, { token: alice.token }), 404);
  });

  test("read-all marks only the caller's notifications in this tenant", async () => {
    const bobs = send(bob.id, "bob-unread");
    const there = send(alice.id, "there-unread", other.id);
    const res = await s.req("PUT", "/api/a/notifications/read-all", { token: alice.token });
    expect(res.status).toBe(200);
    expect((await res.json()).updated).toBeGreaterThan(0);
    expect((await list(alice.token, "?unread=true")).totalElements).toBe(0);
    const read = (id: string) =>
      s.platform.platformSqlite
        .query<{ read_at: string | null }, [string]>("SELECT read_at FROM notifications WHERE id = ?")
        .get(id)!.read_at;
    expect(read(bobs.id)).toBeNull();
    expect(read(there.id)).toBeNull();
    expect((await (await s.req("PUT", "/api/a/notifications/read-all", { token: alice.token })).json()).updated).toBe(
      0,
    );
  });

  test("an API key has no notifications: every route answers 403", async () => {
    const key = await apiKey(s, admin, ["read", "write"]);
    await expectError(await s.req("GET", "/api/a/notifications", { apiKey: key.key }), 403, /API key/);
    await expectError(await s.req("PUT", "/api/a/notifications/read-all", { apiKey: key.key }), 403);
    const n = send(alice.id, "k");
    await expectError(await s.req("PUT", `/api/a/notifications/${n.id}/read`, { apiKey: key.key }), 403);
  });
});
