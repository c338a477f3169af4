import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import {
  type Listening,
  MCP_TOOLS_BY_FILE,
  mcpClient,
  okOf,
  refusalOf,
  REVIEW_FLOW,
  startListening,
  ToolCalls,
} from "../harness/mcp";
import { deployBpmn } from "../harness/process";

// MCP-gated execution over a listening service: each cell of the policy table, deploying is not publishing, the
// confirmation token (expiry on the injected clock, what it binds), one task per call and channel MCP.

let L: Listening;
let tenant: { id: string; slug: string };
let admin: { id: string; email: string; password: string; token: string };
let admin2: { id: string; email: string; password: string; token: string };
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
  for (const k of ["pNone", "pRead", "pFull"]) await deployBpmn(L.s, admin.token, REVIEW_FLOW.replace("KEY", k));
  expect((await setPolicy("pRead", "START_AND_READ")).status).toBe(200);
  expect((await setPolicy("pFull", "START_AND_COMPLETE")).status).toBe(200);
  mcp = await mcpClient(L.url, { email: admin.email, password: admin.password, tenant: "acme" });
});
afterAll(async () => {
  await mcp?.close();
  await L?.close();
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
        xml: REVIEW_FLOW.replace("KEY", "pRead").replace("Review", "Review v2"),
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
  expect(calls.missing(MCP_TOOLS_BY_FILE["mcp-policy.test.ts"])).toEqual([]);
});
