import { afterAll, beforeAll, expect, test } from "bun:test";
import { DEFAULT_RETRY_WAIT_MS } from "../../app/runtime/bpmn/jobs";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, userInTenant } from "../harness/fixtures";
import { besideUserTask, deployBpmn, startProcess } from "../harness/process";
import { startWebhookReceiver, type WebhookReceiver } from "../harness/webhook-receiver";

// Issue 12 (continued): an async http service task's job sends its request once per command run, even when the
// command is computed again after a revision conflict. The receiver is a local server the service may reach because
// HTTP_TASKS_ALLOW_PRIVATE names 127.0.0.1 (by default loopback is refused: hardening-delegates.test.ts).
let s: TestServer;
let receiver: WebhookReceiver;
let admin: string;
let manager: string;

beforeAll(async () => {
  receiver = startWebhookReceiver();
  s = await startTestServer({ env: { HTTP_TASKS_ALLOW_PRIVATE: "127.0.0.1" } });
  const t = await createTenant(s, "http-once");
  admin = (await userInTenant(s, t, "ADMIN")).token;
  manager = (await userInTenant(s, t, "MANAGER")).token;
});
afterAll(async () => {
  receiver.stop();
  await s.close();
});

const field = (name: string, value: string) =>
  `<flowable:field name="${name}"><flowable:string><![CDATA[${value}]]></flowable:string></flowable:field>`;

/** The async http POST `call` to `url` beside the user task `side` (harness: besideUserTask). */
const forked = (key: string, url: string) =>
  besideUserTask(
    key,
    "call",
    `<serviceTask id="call" name="Ship" flowable:async="true" flowable:type="http">
      <extensionElements>
        ${field("requestUrl", url)}
        ${field("requestMethod", "POST")}
        ${field("requestHeaders", "Content-Type: application/json")}
        ${field("requestBody", '{"ship": "order-7"}')}
        ${field("resultVariablePrefix", "shipping")}
      </extensionElements>
    </serviceTask>`,
  );

const detailOf = async (id: string) =>
  (await (await s.req("GET", `/api/a/instances/${id}`, { token: admin })).json()) as {
    variables: Record<string, unknown>;
    activeActivityIds: string[];
  };

const failedJobsOf = async (id: string) =>
  (
    (await (await s.req("GET", "/api/a/instances/failed-jobs", { token: manager })).json()) as { instanceId: string }[]
  ).filter((j) => j.instanceId === id);

const requestsTo = (path: string) => receiver.received.filter((r) => r.path === path);

// The job awaits the receiver while its command computes. The parallel branch's task is completed meanwhile (the
// receiver holds its answer until then), so the job's write meets a revision conflict and the command runner computes
// the command again from fresh state. The POST must not go out again: the outside system would ship twice.
test("an async http task's job sends its request once, even when its command is recomputed after a conflict", async () => {
  await deployBpmn(s, admin, forked("shipping", `${receiver.url}/ship`));
  const inst = await startProcess(s, admin, { definitionKey: "shipping", businessKey: "ship-1" });
  expect(inst.activeTasks.map((t) => t.activityId)).toEqual(["side"]);
  let sideDone = 0;
  receiver.answer(async (r) => {
    if (requestsTo("/ship").length === 1) {
      const res = await s.req("POST", `/api/a/tasks/${inst.activeTasks[0].id}/complete`, { token: admin, json: {} });
      sideDone = res.status;
    }
    return Response.json({ tracking: "T-1", got: JSON.parse(r.body) }, { status: 201 });
  });
  const recomputed = s.platform.processRuntime.commandRecomputations();
  expect(await s.platform.processRuntime.runDueJobs()).toBe(1);
  expect(sideDone).toBe(200);
  // The scenario did what it is for: the job's command met the conflict and was computed again.
  expect(s.platform.processRuntime.commandRecomputations()).toBeGreaterThan(recomputed);
  expect(await (await s.req("GET", "/metrics")).text()).toMatch(/^engine_command_recomputations [1-9]/m);
  const sent = requestsTo("/ship");
  expect(sent).toHaveLength(1);
  expect(sent[0].body).toBe('{"ship": "order-7"}');
  // the job committed the answer's variables on top of the side branch's completion and moved on
  const detail = await detailOf(inst.id);
  expect(detail.activeActivityIds).toEqual(["after"]);
  expect(detail.variables).toMatchObject({
    shippingResponseStatusCode: 201,
    shippingResponseBody: { tracking: "T-1", got: { ship: "order-7" } },
  });
  expect(await failedJobsOf(inst.id)).toEqual([]);
});

// The memo lives for one command run: a job run again after a failure (its retry) sends the request again.
test("a retried job (a new run after a failure) sends the request again", async () => {
  await deployBpmn(s, admin, forked("shippingRetry", `${receiver.url}/retry`));
  const inst = await startProcess(s, admin, { definitionKey: "shippingRetry", businessKey: "ship-2" });
  receiver.answer(() =>
    requestsTo("/retry").length === 1
      ? new Response("busy", { status: 503 })
      : Response.json({ tracking: "T-2" }, { status: 200 }),
  );
  await s.platform.processRuntime.runDueJobs();
  expect(requestsTo("/retry")).toHaveLength(1);
  expect(await failedJobsOf(inst.id)).toHaveLength(1); // failed with retries left, nothing of the answer written
  expect((await detailOf(inst.id)).variables).not.toHaveProperty("shippingResponseStatusCode");
  s.clock.advance(DEFAULT_RETRY_WAIT_MS + 1000);
  expect(await s.platform.processRuntime.runDueJobs()).toBe(1);
  expect(requestsTo("/retry")).toHaveLength(2);
  const detail = await detailOf(inst.id);
  expect(detail.activeActivityIds.sort()).toEqual(["after", "side"]);
  expect(detail.variables).toMatchObject({
    shippingResponseStatusCode: 200,
    shippingResponseBody: { tracking: "T-2" },
  });
  expect(await failedJobsOf(inst.id)).toEqual([]);
});

test("HTTP_TASKS_ALLOW_PRIVATE lets only the listed hosts through; cloud metadata stays refused", async () => {
  for (const [key, url] of [
    ["otherLoopback", "http://127.0.0.2:9/x"],
    ["metadata", "http://169.254.169.254/latest/meta-data"],
  ]) {
    await deployBpmn(s, admin, forked(key, url).replace(' flowable:async="true"', ""));
    const res = await s.req("POST", "/api/a/instances", { token: admin, json: { definitionKey: key } });
    await expectError(
      res,
      422,
      new RegExp(`non-public address ${new URL(url).hostname.replaceAll(".", "\\.")} refused`),
    );
  }
});
