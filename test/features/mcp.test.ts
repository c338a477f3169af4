import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  basic,
  type Listening,
  MCP_TOOLS_BY_FILE,
  mcpClient,
  okOf,
  rawInitialize,
  refusalOf,
  startListening,
  ToolCalls,
} from "../harness/mcp";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";

const FLOW = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="KEY" isExecutable="true">
    <startEvent id="s"/>
    <sequenceFlow id="f1" sourceRef="s" targetRef="review"/>
    <userTask id="review" name="Review"/>
    <sequenceFlow id="f2" sourceRef="review" targetRef="gw"/>
    <exclusiveGateway id="gw" default="f4"/>
    <sequenceFlow id="f3" sourceRef="gw" targetRef="approved"><conditionExpression>\${amount &gt; 100}</conditionExpression></sequenceFlow>
    <sequenceFlow id="f4" sourceRef="gw" targetRef="rejected"/>
    <endEvent id="approved" name="Approved"/>
    <endEvent id="rejected" name="Rejected"/>
  </process>
</definitions>`;

/** The spec's 38 tools, as the test files share them out (each file proves its tools both ways). */
const ALL_TOOLS: string[] = Object.values(MCP_TOOLS_BY_FILE).flat();

let L: Listening;
let tenant: { id: string; slug: string };
let admin: { id: string; email: string; password: string; token: string };
let admin2: { id: string; email: string; password: string; token: string };
let user: { email: string; password: string };
let mcp: Client;

const calls = new ToolCalls();
const call = (name: string, args: Record<string, unknown> = {}, c = mcp) => calls.call(c, name, args);
const ok = okOf;
const refused = (r: Awaited<ReturnType<typeof call>>, msg: RegExp) => expect(refusalOf(r)).toMatch(msg);
const setPolicy = (key: string, mcpPolicy: string) =>
  L.s.req("PUT", `/api/a/definitions/${key}/config`, { token: admin.token, json: { mcpPolicy } });

beforeAll(async () => {
  L = await startListening();
  const sa = await saToken(L.s);
  tenant = await createTenant(L.s, "acme", sa);
  admin = await userInTenant(L.s, tenant, "ADMIN", sa);
  admin2 = await userInTenant(L.s, tenant, "ADMIN", sa);
  user = await userInTenant(L.s, tenant, "USER", sa);
  for (const k of ["pNone", "pRead", "pFull"]) await deployBpmn(L.s, admin.token, FLOW.replace("KEY", k));
  expect((await setPolicy("pRead", "START_AND_READ")).status).toBe(200);
  expect((await setPolicy("pFull", "START_AND_COMPLETE")).status).toBe(200);
  mcp = await mcpClient(L.url, { email: admin.email, password: admin.password, tenant: "acme" });
});
afterAll(async () => {
  await mcp?.close();
  await L?.close();
});

describe("transport and authentication", () => {
  test("initialize negotiates the protocol and opens a session", async () => {
    const res = await rawInitialize(L.url, {
      authorization: basic(admin.email, admin.password),
      "x-tenant-id": "acme",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeTruthy();
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(await res.text()).toContain('"protocolVersion":"2025-06-18"');
    expect(mcp.getServerVersion()?.name).toBe("svc-mcp");
  });

  test("a wrong password answers 401 with the Basic challenge; no credential too", async () => {
    for (const authorization of [basic(admin.email, "wrong-password"), undefined]) {
      const res = await fetch(L.url, {
        method: "POST",
        headers: { ...(authorization ? { authorization } : {}), "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="svc-mcp"');
    }
  });

  test("a slug the user is not a member of does not authenticate", async () => {
    await createTenant(L.s, "other");
    await expect(mcpClient(L.url, { email: admin.email, password: admin.password, tenant: "other" })).rejects.toThrow(
      /401/,
    );
  });

  test("a foreign browser origin is refused; a local one passes the origin check", async () => {
    const h = { authorization: basic(admin.email, admin.password), "content-type": "application/json" };
    const evil = await fetch(L.url, { method: "POST", headers: { ...h, origin: "http://evil.example" }, body: "{}" });
    expect(evil.status).toBe(403);
    const local = await fetch(L.url, {
      method: "POST",
      headers: { ...h, origin: "http://localhost:3000" },
      body: "{}",
    });
    expect(local.status).toBe(400); // past the origin and the credential: no session, not an initialize
  });

  test("an ordinary user authenticates but lists no tool and every call is refused", async () => {
    const c = await mcpClient(L.url, { ...user, tenant: "acme" });
    expect((await c.listTools()).tools).toEqual([]);
    for (const name of ALL_TOOLS) {
      const r = (await c.callTool({ name, arguments: {} })) as Awaited<ReturnType<typeof call>>;
      expect(refusalOf(r)).toBe("MCP tools require the tenant ADMIN role or SUPER_ADMIN");
    }
    await c.close();
  });

  test("SUPER_ADMIN without X-Tenant-ID operates with no tenant: tools are listed, a call asks for the header", async () => {
    const c = await mcpClient(L.url, { email: "admin@test.local", password: "admin-password-1" });
    expect((await c.listTools()).tools).toHaveLength(38);
    refused(await call("svc_process_list", {}, c), /No tenant selected: send the header X-Tenant-ID/);
    await c.close();
    const inTenant = await mcpClient(L.url, {
      email: "admin@test.local",
      password: "admin-password-1",
      tenant: "acme",
    });
    expect(ok(await call("svc_process_list", {}, inTenant)).items.map((d: { key: string }) => d.key)).toContain(
      "pNone",
    );
    await inTenant.close();
  });

  test("failed Basic attempts count against the login limiter (shared with POST /auth/login)", async () => {
    const sa = await saToken(L.s);
    const victim = await userInTenant(L.s, tenant, "ADMIN", sa);
    const post = (password: string) =>
      fetch(L.url, {
        method: "POST",
        headers: {
          authorization: basic(victim.email, password),
          "x-tenant-id": "acme",
          "content-type": "application/json",
        },
        body: "{}",
      });
    for (let i = 0; i < 6; i++) expect((await post("wrong-password")).status).toBe(401);
    const limited = await post(victim.password);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const rest = await L.s.req("POST", "/api/auth/login", {
      json: { email: victim.email, password: victim.password },
      ip: "127.0.0.1",
    });
    expect(rest.status).toBe(429);
    L.s.clock.advance(2_000);
    await expect(
      mcpClient(L.url, { email: victim.email, password: victim.password, tenant: "acme" }),
    ).resolves.toBeTruthy();
  });

  test("MCP_SERVER_ENABLED=false removes the route", async () => {
    const off = await startListening({ MCP_SERVER_ENABLED: "false" });
    const res = await fetch(off.url, { method: "POST", headers: { authorization: basic("a@b.c", "x") }, body: "{}" });
    expect(res.status).toBe(404);
    await off.close();
  });
});

describe("tools", () => {
  test("tools/list names the spec's 38 tools, each with its hints and its input and output schemas", async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
    for (const t of tools) {
      expect(typeof t.annotations?.readOnlyHint).toBe("boolean");
      expect(typeof t.annotations?.destructiveHint).toBe("boolean");
      if (t.annotations?.readOnlyHint) expect(t.annotations.destructiveHint).toBe(false);
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      expect(t.description?.length).toBeGreaterThan(20);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("svc_run_task_complete")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get("svc_run_task_complete")?.annotations?.idempotentHint).toBeUndefined();
    expect(byName.get("svc_process_list")?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    // Everything that only reads says so; the writes are the rest.
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(readOnly.sort()).toEqual(
      ALL_TOOLS.filter((n) =>
        /_(list|get|get_xml|versions|field_types|query|validate|propose|suggest_knowledge|my_tasks|preview|why_failed)$/.test(
          n,
        ),
      ).sort(),
    );
    // Destructive (MCP: not only additive): a completion, and a load that may overwrite records by keyField.
    const destructive = tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name);
    expect(destructive.sort()).toEqual(["svc_cms_records_load", "svc_run_task_complete"]);
    expect(byName.get("svc_run_start")?.inputSchema.required).toEqual(["definitionKey"]);
    expect(byName.get("svc_run_task_complete")?.inputSchema.required).toEqual(["taskId", "confirmationToken"]);
    expect(byName.get("svc_cms_records_load")?.inputSchema.properties).toHaveProperty("records");
    expect(byName.get("svc_run_task_preview")?.outputSchema?.properties).toHaveProperty("confirmationToken");
  });

  test("service errors come back as tool errors with the REST message; bad input with the field", async () => {
    refused(await call("svc_process_versions", { key: "nope" }), /Definition 'nope' not found/);
    refused(await call("svc_run_start", {}), /definitionKey/);
  });
});

describe("policy and the confirmation token", () => {
  test("NONE refuses start; START_AND_READ starts but refuses completion", async () => {
    refused(await call("svc_run_start", { definitionKey: "pNone" }), /policy of process 'pNone' is NONE/);
    const started = ok(await call("svc_run_start", { definitionKey: "pRead" }));
    expect(started.neverPublished).toBe(true);
    expect(started.note).toMatch(/never been published/);
    const taskId = started.activeTasks[0].id;
    ok(await call("svc_run_task_claim", { taskId }));
    const p = ok(await call("svc_run_task_preview", { taskId, variables: {} }));
    refused(
      await call("svc_run_task_complete", { taskId, variables: {}, confirmationToken: p.confirmationToken }),
      /START_AND_READ/,
    );
  });

  test("START_AND_COMPLETE: claimed, previewed, same variables: completes on channel MCP", async () => {
    const started = ok(await call("svc_run_start", { definitionKey: "pFull" }));
    const taskId = started.activeTasks[0].id;
    const vars = { amount: 150 };
    const early = ok(await call("svc_run_task_preview", { taskId, variables: vars }));
    refused(
      await call("svc_run_task_complete", { taskId, variables: vars, confirmationToken: early.confirmationToken }),
      /not claimed by you/,
    );
    ok(await call("svc_run_task_claim", { taskId }));
    const p = ok(await call("svc_run_task_preview", { taskId, variables: vars }));
    expect(p.nextActivities).toEqual([
      expect.objectContaining({ activityId: "approved", conditional: true, condition: "${amount > 100}" }),
      expect.objectContaining({ activityId: "rejected", conditional: false, isDefault: true }),
    ]);
    refused(
      await call("svc_run_task_complete", {
        taskId,
        variables: { amount: 151 },
        confirmationToken: p.confirmationToken,
      }),
      /does not match/,
    );
    const done = ok(
      await call("svc_run_task_complete", { taskId, variables: vars, confirmationToken: p.confirmationToken }),
    );
    expect(done.channel).toBe("MCP");
    expect(done.state).toBe("COMPLETED");
  });

  test("deploying is not publishing: with a published version, a new deploy starts nothing new", async () => {
    const versions = ok(await call("svc_process_versions", { key: "pRead" }));
    const v1 = versions.items[0].definitionId;
    const pub = await L.s.req("POST", `/api/a/definitions/pRead/versions/${v1}/publish`, { token: admin.token });
    expect(pub.status).toBe(200);
    const d = ok(
      await call("svc_process_deploy", {
        fileName: "v2.bpmn",
        xml: FLOW.replace("KEY", "pRead").replace("Review", "Review v2"),
      }),
    );
    expect(d.definitions[0].version).toBe(2);
    const started = ok(await call("svc_run_start", { definitionKey: "pRead" }));
    expect(started).toMatchObject({
      version: 1,
      neverPublished: false,
      note: "Started the published version 1 of 'pRead'",
    });
    expect(started.activeTasks[0].name).toBe("Review");
  });

  test("NONE refuses completion too (an instance started over REST, claimed and previewed)", async () => {
    const r = await L.s.req("POST", "/api/a/instances", { token: admin.token, json: { definitionKey: "pNone" } });
    expect(r.status).toBe(201);
    const taskId = ((await r.json()) as { activeTasks: { id: string }[] }).activeTasks[0].id;
    ok(await call("svc_run_task_claim", { taskId }));
    const p = ok(await call("svc_run_task_preview", { taskId, variables: {} }));
    refused(
      await call("svc_run_task_complete", { taskId, variables: {}, confirmationToken: p.confirmationToken }),
      /policy of process 'pNone' is NONE/,
    );
    const task = await L.s.req("GET", `/api/a/tasks/${taskId}`, { token: admin.token });
    expect(((await task.json()) as { state: string }).state).toBe("OPEN");
  });

  const claimedTask = async (c = mcp) => {
    const started = ok(await call("svc_run_start", { definitionKey: "pFull" }, c));
    const taskId = started.activeTasks[0].id as string;
    ok(await call("svc_run_task_claim", { taskId }, c));
    return taskId;
  };

  test("a token older than ten minutes has expired; one just younger still completes", async () => {
    const taskId = await claimedTask();
    const p = ok(await call("svc_run_task_preview", { taskId, variables: {} }));
    L.s.clock.advance(10 * 60_000 + 1);
    refused(
      await call("svc_run_task_complete", { taskId, variables: {}, confirmationToken: p.confirmationToken }),
      /expired/,
    );
    const again = ok(await call("svc_run_task_preview", { taskId, variables: {} }));
    expect(Date.parse(again.expiresAt)).toBe(L.s.clock.now() + 10 * 60_000);
    L.s.clock.advance(10 * 60_000 - 1);
    const done = ok(
      await call("svc_run_task_complete", { taskId, variables: {}, confirmationToken: again.confirmationToken }),
    );
    expect(done.state).toBe("COMPLETED");
  });

  test("a token matches only its task, its user, its variables and itself", async () => {
    const a = await claimedTask();
    const b = await claimedTask();
    const vars = { amount: 5, note: { lines: ["x", "y"] } };
    const pa = ok(await call("svc_run_task_preview", { taskId: a, variables: vars }));
    refused(await call("svc_run_task_preview", { taskId: "no-such-task", variables: vars }), /not found/i);
    // another task
    refused(
      await call("svc_run_task_complete", { taskId: b, variables: vars, confirmationToken: pa.confirmationToken }),
      /does not match/,
    );
    // a nested change, an added variable, a removed one
    for (const variables of [{ amount: 5, note: { lines: ["x"] } }, { ...vars, extra: true }, { amount: 5 }])
      refused(
        await call("svc_run_task_complete", { taskId: a, variables, confirmationToken: pa.confirmationToken }),
        /does not match/,
      );
    // a tampered expiry or signature
    const [exp, sig] = pa.confirmationToken.split(".");
    for (const token of [
      `${Number(exp) + 60_000}.${sig}`,
      `${exp}.${sig.slice(0, -2)}AA`,
      `${exp}.${sig}.x`,
      "garbage",
    ])
      refused(
        await call("svc_run_task_complete", { taskId: a, variables: vars, confirmationToken: token }),
        /does not match/,
      );
    // another user: admin2 cannot claim admin's task, takes it over once released, and presents admin's token
    const c2 = await mcpClient(L.url, { email: admin2.email, password: admin2.password, tenant: "acme" });
    refused(await call("svc_run_task_claim", { taskId: a }, c2), /claimed by (someone else|another user)/i);
    expect((await L.s.req("POST", `/api/a/tasks/${a}/unclaim`, { token: admin.token })).status).toBe(200);
    ok(await call("svc_run_task_claim", { taskId: a }, c2));
    refused(
      await call("svc_run_task_complete", { taskId: a, variables: vars, confirmationToken: pa.confirmationToken }, c2),
      /does not match/,
    );
    // the same variables in another key order are the same variables
    const p2 = ok(await call("svc_run_task_preview", { taskId: a, variables: vars }, c2));
    const reordered = { note: { lines: ["x", "y"] }, amount: 5 };
    const done = ok(
      await call(
        "svc_run_task_complete",
        { taskId: a, variables: reordered, confirmationToken: p2.confirmationToken },
        c2,
      ),
    );
    expect(done.state).toBe("COMPLETED");
    // one task per call: b is still open
    const open = await L.s.req("GET", `/api/a/tasks/${b}`, { token: admin.token });
    expect(((await open.json()) as { state: string }).state).toBe("OPEN");
    await c2.close();
  });

  test("the task history records the completion's channel: MCP here, not the REST one", async () => {
    const taskId = await claimedTask();
    const p = ok(await call("svc_run_task_preview", { taskId, variables: { amount: 1 } }));
    ok(
      await call("svc_run_task_complete", { taskId, variables: { amount: 1 }, confirmationToken: p.confirmationToken }),
    );
    const viaRest = await L.s.req("GET", `/api/a/tasks/${taskId}`, { token: admin.token });
    expect(await viaRest.json()).toMatchObject({ state: "COMPLETED", completedBy: admin.id, channel: "MCP" });
    const other = await claimedTask();
    const done = await L.s.req("POST", `/api/a/tasks/${other}/complete`, { token: admin.token, json: {} });
    expect(done.status).toBe(200);
    expect(((await done.json()) as { channel: string }).channel).not.toBe("MCP");
  });
});

test("each tool of this file answered a success and a refusal", () => {
  expect(calls.missing(MCP_TOOLS_BY_FILE["mcp.test.ts"])).toEqual([]);
});
