import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";

// Issue 17 / isolation rule 3: global process templates replicated into subscribing tenants as their own definitions.
let s: TestServer;
let sa: string;
let a: { token: string };
let b: { token: string };
let aModeler: { token: string };

const model = (key: string, endName: string) =>
  `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t"><process id="${key}" name="${key}" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="e"/><endEvent id="e" name="${endName}"/></process></definitions>`;
const versionsOf = async (token: string, key: string) => {
  const res = await s.req("GET", `/api/a/definitions/${key}/versions`, { token });
  return res.status === 200 ? ((await res.json()) as { version: number }[]).map((v) => v.version).sort() : res.status;
};
/** The XML of the tenant's latest version of `key`. */
const xmlOf = async (token: string, key: string) => {
  const versions = (await (await s.req("GET", `/api/a/definitions/${key}/versions`, { token })).json()) as {
    version: number;
    definitionId: string;
  }[];
  const latest = versions.sort((x, y) => y.version - x.version)[0];
  return await (await s.req("GET", `/api/a/definitions/${key}/versions/${latest.definitionId}/xml`, { token })).text();
};
const mine = async (token: string, key: string) =>
  ((await (await s.req("GET", "/api/a/process-templates", { token })).json()) as any[]).find((t) => t.key === key);
const sub = (token: string, key: string, query = "") =>
  s.req("PUT", `/api/a/process-templates/${key}/subscription${query}`, { token });

beforeAll(async () => {
  s = await startTestServer();
  sa = await saToken(s);
  const ta = await createTenant(s, "tpl-a", sa);
  const tb = await createTenant(s, "tpl-b", sa);
  a = await userInTenant(s, ta, "ADMIN", sa);
  b = await userInTenant(s, tb, "ADMIN", sa);
  aModeler = await userInTenant(s, ta, "MODELER", sa);
});
afterAll(() => s.close());

describe("global process templates", () => {
  test("SA creates a template; refusals: tenant admin 403, duplicate 409, XML without the key's process 400", async () => {
    const body = { key: "leave", name: "Leave request", xml: model("leave", "v1") };
    await expectError(await s.req("POST", "/api/admin/process-templates", { token: a.token, json: body }), 403);
    const res = await s.req("POST", "/api/admin/process-templates", { token: sa, json: body });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ key: "leave", version: 1, subscribers: 0, enabled: true });
    await expectError(await s.req("POST", "/api/admin/process-templates", { token: sa, json: body }), 409);
    const wrong = { key: "other", name: "x", xml: model("leave", "v1") };
    await expectError(await s.req("POST", "/api/admin/process-templates", { token: sa, json: wrong }), 400, /'other'/);
    await expectError(
      await s.req("POST", "/api/admin/process-templates", { token: sa, json: { ...wrong, xml: "<nope" } }),
      400,
    );
  });

  test("a tenant Admin subscribes: the template becomes the tenant's own definition; other roles 403", async () => {
    await expectError(await sub(aModeler.token, "leave"), 403);
    const key = await apiKey(s, a.token, ["read", "write"]);
    await expectError(await s.req("PUT", "/api/a/process-templates/leave/subscription", { apiKey: key.key }), 403);
    await expectError(await s.req("GET", "/api/admin/process-templates", { token: a.token }), 403);
    await expectError(await sub(a.token, "no-such-template"), 404);
    const res = await sub(a.token, "leave");
    expect(res.status).toBe(200);
    expect((await res.json()).subscription).toMatchObject({
      status: "SUBSCRIBED",
      appliedVersion: 1,
      definitionVersion: 1,
    });
    expect(await versionsOf(a.token, "leave")).toEqual([1]);
    expect(await versionsOf(b.token, "leave")).toBe(404); // not subscribed: nothing in tenant b
    expect((await sub(a.token, "leave")).status).toBe(200); // again: no second deployment
    expect(await versionsOf(a.token, "leave")).toEqual([1]);
    expect((await sub(b.token, "leave")).status).toBe(200);
  });

  test("a new template version reaches every subscriber as a new version of its definition", async () => {
    const res = await s.req("PUT", "/api/admin/process-templates/leave", {
      token: sa,
      json: { xml: model("leave", "v2") },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ version: 2, subscribers: 2, replication: { APPLIED: 2, DIVERGED: 0 } });
    expect(await versionsOf(a.token, "leave")).toEqual([1, 2]);
    expect(await versionsOf(b.token, "leave")).toEqual([1, 2]);
    expect(await xmlOf(b.token, "leave")).toContain('name="v2"');
    // A rename is not a new version: nothing is deployed.
    const renamed = await s.req("PUT", "/api/admin/process-templates/leave", { token: sa, json: { name: "Leave" } });
    expect(await renamed.json()).toMatchObject({ version: 2, replication: { APPLIED: 0 } });
  });

  test("a tenant's own edit is never overwritten: its subscription turns DIVERGED, template versions stop", async () => {
    await deployBpmn(s, a.token, model("leave", "tenant a's own"));
    const res = await s.req("PUT", "/api/admin/process-templates/leave", {
      token: sa,
      json: { xml: model("leave", "v3") },
    });
    expect(await res.json()).toMatchObject({ version: 3, replication: { APPLIED: 1, DIVERGED: 1 } });
    expect(await versionsOf(a.token, "leave")).toEqual([1, 2, 3]);
    expect(await xmlOf(a.token, "leave")).toContain("tenant a's own");
    expect((await mine(a.token, "leave")).subscription.status).toBe("DIVERGED");
    expect(await xmlOf(b.token, "leave")).toContain('name="v3"');
    // Subscribing again is refused unless the tenant adopts the template's version over its own.
    await expectError(await sub(a.token, "leave"), 409, /adopt=true/);
    const adopted = await sub(a.token, "leave", "?adopt=true");
    expect((await adopted.json()).subscription).toMatchObject({
      status: "SUBSCRIBED",
      appliedVersion: 3,
      definitionVersion: 4,
    });
    expect(await xmlOf(a.token, "leave")).toContain('name="v3"');
  });

  test("a tenant with its own definition of the key must adopt to subscribe", async () => {
    await s.req("POST", "/api/admin/process-templates", {
      token: sa,
      json: { key: "trip", name: "Trip", xml: model("trip", "t1") },
    });
    await deployBpmn(s, b.token, model("trip", "b's trip"));
    await expectError(await sub(b.token, "trip"), 409);
    expect(await xmlOf(b.token, "trip")).toContain("b's trip");
  });

  test("unsubscribe: later versions do not arrive; the definition stays the tenant's", async () => {
    await expectError(await s.req("DELETE", "/api/a/process-templates/trip/subscription", { token: b.token }), 404);
    expect((await s.req("DELETE", "/api/a/process-templates/leave/subscription", { token: b.token })).status).toBe(204);
    const res = await s.req("PUT", "/api/admin/process-templates/leave", {
      token: sa,
      json: { xml: model("leave", "v4") },
    });
    expect(await res.json()).toMatchObject({ version: 4, subscribers: 1, replication: { APPLIED: 1 } });
    expect(await versionsOf(b.token, "leave")).toEqual([1, 2, 3]);
    expect((await mine(b.token, "leave")).subscription).toBeNull();
    expect(await xmlOf(a.token, "leave")).toContain('name="v4"');
  });

  test("provisioning subscribes a new tenant to every enabled template; a disabled one is not seeded", async () => {
    await s.req("PUT", "/api/admin/process-templates/trip", { token: sa, json: { enabled: false } });
    const t = await createTenant(s, "tpl-new", sa);
    const admin = await userInTenant(s, t, "ADMIN", sa);
    expect(await versionsOf(admin.token, "leave")).toEqual([1]);
    expect(await versionsOf(admin.token, "trip")).toBe(404);
    expect((await mine(admin.token, "leave")).subscription).toMatchObject({ status: "SUBSCRIBED", appliedVersion: 4 });
  });

  test("delete: subscriptions end, tenants keep their definitions; tenant admin 403; unknown 404", async () => {
    await expectError(await s.req("DELETE", "/api/admin/process-templates/leave", { token: a.token }), 403);
    await expectError(await s.req("DELETE", "/api/admin/process-templates/nope", { token: sa }), 404);
    expect((await s.req("DELETE", "/api/admin/process-templates/leave", { token: sa })).status).toBe(204);
    expect(await mine(a.token, "leave")).toBeUndefined();
    expect(await xmlOf(a.token, "leave")).toContain('name="v4"');
  });
});
