import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { type Listening, mcpClient, okOf, refusalOf, startListening } from "../harness/mcp";
import { deployBpmn } from "../harness/process";

// Start forms are enforced as task forms are: the start event's form, in the version a task would lock (published,
// else latest), its required fields checked before anything is written, for every channel that starts an instance.

const LEAVE = (formKey = "leave-start") => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  targetNamespace="t">
  <process id="leave" isExecutable="true">
    <startEvent id="s" camunda:formKey="${formKey}"/>
    <sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Approve leave"/>
    <sequenceFlow id="f2" sourceRef="t" targetRef="e"/>
    <endEvent id="e"/>
  </process>
</definitions>`;
const FORM = {
  key: "leave-start",
  name: "Leave request",
  schema: {
    fields: [
      { key: "days", type: "integer", label: "Days", required: true },
      { key: "kind", type: "select", label: "Kind", required: true, options: ["vacation", "sick"] },
      { key: "doctor", type: "text", label: "Doctor", required: true, visibleIf: 'kind = "sick"' },
      { key: "note", type: "text", label: "Note" },
    ],
  },
};

let L: Listening;
let admin: { id: string; email: string; password: string; token: string };
let user: { id: string; email: string; password: string; token: string };
let mcp: Client;

const start = (token: string, variables: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  L.s.req("POST", "/api/a/instances", { token, json: { definitionKey: "leave", variables, ...extra } });
const count = async () =>
  (
    (await (await L.s.req("GET", "/api/a/instances?size=100", { token: admin.token })).json()) as {
      content: { definitionKey: string }[];
    }
  ).content.filter((i) => i.definitionKey === "leave").length;

beforeAll(async () => {
  L = await startListening();
  const sa = await saToken(L.s);
  const tenant = await createTenant(L.s, "leave-co", sa);
  admin = await userInTenant(L.s, tenant, "ADMIN", sa);
  user = await userInTenant(L.s, tenant, "USER", sa);
  await deployBpmn(L.s, admin.token, LEAVE());
  expect((await L.s.req("POST", "/api/a/definitions/leave/forms", { token: admin.token, json: FORM })).status).toBe(
    201,
  );
  await L.s.req("PUT", "/api/a/definitions/leave/config", {
    token: admin.token,
    json: { mcpPolicy: "START_AND_READ" },
  });
  mcp = await mcpClient(L.url, { email: admin.email, password: admin.password, tenant: "leave-co" });
});
afterAll(async () => {
  await mcp?.close();
  await L?.close();
});

describe("start forms", () => {
  test("REST: missing required fields answer 400 with one fieldErrors entry per field and start nothing", async () => {
    const before = await count();
    const body = await expectError(
      await start(user.token, {}),
      400,
      /^Campos obrigatórios não preenchidos: days, kind$/,
    );
    expect(body.fieldErrors).toEqual([
      { field: "days", message: "required" },
      { field: "kind", message: "required" },
    ]);
    // An empty string and a blank are not filled; a rule makes `doctor` required only for sick leave.
    const sick = await expectError(await start(user.token, { days: 2, kind: "sick", doctor: "  " }), 400);
    expect(sick.fieldErrors).toEqual([{ field: "doctor", message: "required" }]);
    expect(await count()).toBe(before);
    expect((await start(user.token, { days: 2, kind: "vacation" })).status).toBe(201);
    expect((await start(user.token, { days: 1, kind: "sick", doctor: "Dr. Ana" })).status).toBe(201);
    expect(await count()).toBe(before + 2);
  });

  test("an API key's start is checked the same way", async () => {
    const key = await apiKey(L.s, admin.token, ["read", "write"]);
    const req = (variables: Record<string, unknown>) =>
      L.s.req("POST", "/api/a/instances", {
        headers: { "x-api-key": key.key },
        json: { definitionKey: "leave", variables },
      });
    const body = await expectError(await req({ days: 3 }), 400);
    expect(body.fieldErrors).toEqual([{ field: "kind", message: "required" }]);
    expect((await req({ days: 3, kind: "vacation" })).status).toBe(201);
  });

  test("MCP svc_run_start is refused with the fields named, and starts once they are given", async () => {
    const before = await count();
    const r = (await mcp.callTool({ name: "svc_run_start", arguments: { definitionKey: "leave" } })) as never;
    expect(refusalOf(r)).toMatch(/days, kind/);
    expect(await count()).toBe(before);
    const ok = (await mcp.callTool({
      name: "svc_run_start",
      arguments: { definitionKey: "leave", variables: { days: 1, kind: "vacation" } },
    })) as never;
    expect(okOf(ok).definitionKey).toBe("leave");
  });

  test("the published version of the form is the one checked, whatever the latest says", async () => {
    const publish = await L.s.req("POST", "/api/a/definitions/leave/forms/leave-start/publish", {
      token: admin.token,
      json: {},
    });
    expect(publish.status).toBe(200);
    const edited = { ...FORM.schema, fields: [...FORM.schema.fields, { key: "extra", type: "text", required: true }] };
    expect(
      (
        await L.s.req("PUT", "/api/a/definitions/leave/forms/leave-start", {
          token: admin.token,
          json: { name: "Leave request", schema: edited },
        })
      ).status,
    ).toBe(200);
    // Version 2 is a draft: starts still answer to version 1.
    expect((await start(user.token, { days: 2, kind: "vacation" })).status).toBe(201);
    await L.s.req("POST", "/api/a/definitions/leave/forms/leave-start/publish", { token: admin.token, json: {} });
    const body = await expectError(await start(user.token, { days: 2, kind: "vacation" }), 400);
    expect(body.fieldErrors).toEqual([{ field: "extra", message: "required" }]);
  });

  test("a start event naming a form the platform does not hold starts without a check", async () => {
    await deployBpmn(L.s, admin.token, LEAVE("no-such-form"));
    expect((await start(user.token, {})).status).toBe(201);
  });
});
