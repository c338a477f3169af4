import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";

// Every resource is created in tenant B; tenant A's Admin, with a token for A, must reach none of it by id.
let s: TestServer;
let a: string;
const b: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  a = (await userInTenant(s, await createTenant(s, "iso-a", sa), "ADMIN", sa)).token;
  const tb = await createTenant(s, "iso-b", sa);
  const adminB = (await userInTenant(s, tb, "ADMIN", sa)).token;
  const json = async (res: Response, status: number) => {
    expect(res.status).toBe(status);
    return res.json();
  };
  await deployBpmn(s, adminB, bpmnFixture("approval.bpmn"));
  const inst = await startProcess(s, adminB, { definitionKey: "approval" });
  b.instance = inst.id;
  b.task = (await (await s.req("GET", `/api/a/tasks?instanceId=${inst.id}`, { token: adminB })).json())[0].id;
  const dmn = new FormData();
  dmn.append("file", new File([readFileSync(join(import.meta.dir, "../fixtures/dmn/discount.dmn"), "utf8")], "d.dmn"));
  await json(await s.req("POST", "/api/a/decisions", { token: adminB, body: dmn }), 201);
  const col = await json(
    await s.req("POST", "/api/a/cms/collections", {
      token: adminB,
      json: { name: "c", confidentiality: "PUBLIC", fields: [{ name: "n", type: "text" }] },
    }),
    201,
  );
  b.collection = col.id;
  b.record = (
    await json(
      await s.req("POST", `/api/a/cms/collections/${col.id}/records`, { token: adminB, json: { values: { n: "x" } } }),
      201,
    )
  ).id;
  const file = new FormData();
  file.append("file", new Blob(["secret of b"], { type: "text/plain" }), "b.txt");
  file.append("entityType", "PROCESS_INSTANCE");
  file.append("entityId", inst.id);
  b.attachment = (await json(await s.req("POST", "/api/a/attachments", { token: adminB, body: file }), 201)).id;
  b.docType = (
    await json(await s.req("POST", "/api/a/document-types", { token: adminB, json: { name: "Invoice" } }), 201)
  ).id;
  b.role = (
    await json(await s.req("POST", "/api/a/process-roles", { token: adminB, json: { key: "r", name: "R" } }), 201)
  ).id;
  await json(
    await s.req("POST", "/api/a/definitions/approval/forms", {
      token: adminB,
      json: { key: "f", name: "F", schema: { fields: [] } },
    }),
    201,
  );
  await json(
    await s.req("POST", "/api/a/forms/datasources", {
      token: adminB,
      json: { key: "ds", name: "DS", kind: "STATIC", config: { rows: [] } },
    }),
    201,
  );
  await json(await s.req("PUT", "/api/a/variables/v", { token: adminB, json: { value: "b-only" } }), 200);
});
afterAll(() => s.close());

describe("a tenant A Admin with a token for A reaches nothing of tenant B", () => {
  const probes: [string, string, unknown?][] = [];
  const add = (method: string, path: () => string, body?: unknown) =>
    probes.push([method, path as unknown as string, body]);
  add("GET", () => "/api/a/definitions/approval");
  add("GET", () => "/api/a/definitions/approval/versions");
  add("GET", () => "/api/a/definitions/approval/monitor");
  add("GET", () => `/api/a/instances/${b.instance}`);
  add("GET", () => `/api/a/instances/${b.instance}/diagram`);
  add("DELETE", () => `/api/a/instances/${b.instance}`);
  add("GET", () => `/api/a/history/instances/${b.instance}`);
  add("GET", () => `/api/a/tasks/${b.task}`);
  add("POST", () => `/api/a/tasks/${b.task}/claim`);
  add("POST", () => `/api/a/tasks/${b.task}/complete`, {});
  add("GET", () => "/api/a/decisions/discount");
  add("POST", () => "/api/a/decisions/discount/evaluate", { variables: {} });
  add("GET", () => `/api/a/cms/collections/${b.collection}`);
  add("GET", () => `/api/a/cms/collections/${b.collection}/records`);
  add("PUT", () => `/api/a/cms/collections/${b.collection}/records/${b.record}`, { values: { n: "y" } });
  add("GET", () => `/api/a/attachments/${b.attachment}`);
  add("GET", () => `/api/a/attachments/${b.attachment}/download`);
  add("PUT", () => `/api/a/document-types/${b.docType}`, { name: "x" });
  add("GET", () => `/api/a/process-roles/${b.role}`);
  add("GET", () => "/api/a/definitions/approval/forms/f");
  add("GET", () => "/api/a/forms/datasources/ds");
  add("GET", () => "/api/a/variables/v");

  test("every probe by B's ids answers 404", async () => {
    for (const [method, path, body] of probes) {
      const p = (path as unknown as () => string)();
      const res = await s.req(method, p, { token: a, json: body });
      expect({ method, p, status: res.status }).toEqual({ method, p, status: 404 });
    }
  });

  test("lists of tenant A show none of B's data", async () => {
    for (const path of [
      "/api/a/definitions",
      "/api/a/decisions",
      "/api/a/cms/collections",
      "/api/a/tasks",
      "/api/a/process-roles",
      "/api/a/forms/datasources",
      "/api/a/variables",
    ]) {
      const body = await (await s.req("GET", path, { token: a })).json();
      expect({ path, body: Array.isArray(body) ? body : body.content }).toEqual({ path, body: [] });
    }
    const inst = await (await s.req("GET", "/api/a/instances", { token: a })).json();
    expect(inst.totalElements).toBe(0);
  });
});
