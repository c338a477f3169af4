import { describe, expect, test } from "bun:test";
import { expectError } from "../harness/fixtures";
import { startProcess } from "../harness/process";
import { RobotBpmnError, startRobotRunner } from "../../examples/robot-runner";
import { env, fetchLock, newRunner, openActivities, runnerReq, useRobotServer } from "./robots.setup";

useRobotServer();

describe("robot runners", () => {
  test("the token is shown once and kept hashed; a wrong or revoked token is 401", async () => {
    const { s, admin } = env;
    const runner = await newRunner("revoked");
    const list = await (await s.req("GET", "/api/a/robot-runners", { token: admin })).text();
    expect(list).not.toContain(runner.token);
    const row = s.platform.platformSqlite.query("SELECT hash FROM robot_runners WHERE id = ?").get(runner.id) as {
      hash: string;
    };
    expect(row.hash).not.toContain(runner.token.slice(18));
    await expectError(
      await runnerReq(`${runner.token}x`, "/fetchAndLock", {
        maxTasks: 1,
        topics: [{ topicName: "crm", lockDuration: 1000 }],
      }),
      401,
    );
    await expectError(await runnerReq("pmsr_AAAAAAAAAAAA_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "/fetchAndLock", {}), 401);
    // Used just before (a verified token is remembered for a while), then revoked: refused from the next request on.
    const poll = (token: string) =>
      runnerReq(token, "/fetchAndLock", { maxTasks: 1, topics: [{ topicName: "crm", lockDuration: 1000 }] });
    const kept = await newRunner("kept");
    expect((await poll(runner.token)).status).toBe(200);
    expect((await poll(kept.token)).status).toBe(200);
    // The kept runner's stored hash changes behind the service's back: from here on only the memory of verified
    // tokens can let its token in, so the last poll below shows that revoking one runner kept the other's entry.
    s.platform.platformSqlite.query("UPDATE robot_runners SET hash = 'changed' WHERE id = ?").run(kept.id);
    expect((await s.req("DELETE", `/api/a/robot-runners/${runner.id}`, { token: admin })).status).toBe(204);
    await expectError(await poll(runner.token), 401);
    // Only the revoked runner's token is forgotten: another runner goes on, still remembered.
    expect((await poll(kept.token)).status).toBe(200);
  });

  test("a runner token reaches nothing but the external task API and CMS reading; users cannot use that API", async () => {
    const { s, admin } = env;
    const runner = await newRunner("scoped");
    await expectError(await s.req("GET", "/api/a/robots", { token: runner.token }), 403);
    await expectError(await s.req("GET", "/api/a/instances", { token: runner.token }), 403);
    await expectError(
      await fetchLockRaw(admin, { maxTasks: 1, topics: [{ topicName: "crm", lockDuration: 1000 }] }),
      403,
    );
  });

  test("malformed bodies, unknown topics and tasks not held answer 400 / 404 / 409", async () => {
    const runner = await newRunner("picky");
    await expectError(await fetchLockRaw(runner.token, { maxTasks: 0, topics: [] }), 400);
    await expectError(
      await fetchLockRaw(runner.token, {
        maxTasks: 1,
        asyncResponseTimeout: 61_000,
        topics: [{ topicName: "crm", lockDuration: 1 }],
      }),
      400,
    );
    await expectError(
      await fetchLockRaw(runner.token, { maxTasks: 1, topics: [{ topicName: "nope", lockDuration: 1000 }] }),
      400,
      /unknown/,
    );
    await expectError(await runnerReq(runner.token, "/no-such-job/complete", {}), 404);
    await expectError(await runnerReq(runner.token, "/x/failure", { retries: 1 }), 400);
    await expectError(await runnerReq(runner.token, "/x/extendLock", { newDuration: -1 }), 400);
    await expectError(await runnerReq(runner.token, "/x/bpmnError", {}), 400);
  });

  test("a long poll is answered as soon as work appears", async () => {
    const { s, admin } = env;
    const runner = await newRunner("poller");
    // The poll's wait (60 s) is longer than the test's own timeout (30 s): only the new job can answer it in time.
    const polled = fetchLock(runner.token, "mailer", { wait: 60_000 });
    await Bun.sleep(100);
    expect(s.platform.processRuntime.externalJobs.waiting()).toBeGreaterThan(0);
    await startProcess(s, admin, { definitionKey: "camundaFlow" });
    const tasks = await polled;
    expect(tasks).toHaveLength(1);
    // The Camunda Modeler model (camunda:type="external") runs: complete moves it on.
    expect((await runnerReq(runner.token, `/${tasks[0].id}/complete`, {})).status).toBe(204);
    expect(openActivities(tasks[0].processInstanceId)).toEqual(["after"]);
  });

  test("a long poll with no work ends empty at its timeout", async () => {
    const runner = await newRunner("idle");
    const t0 = performance.now();
    expect(await fetchLock(runner.token, "flaky", { wait: 300 })).toEqual([]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(250);
  });

  test("20 concurrent runners never lock the same job", async () => {
    const { s, admin } = env;
    const runners = await Promise.all(Array.from({ length: 20 }, (_, i) => newRunner(`r${i}`)));
    const polls = runners.map((r) => fetchLock(r.token, "busy", { wait: 1_500, max: 3 }));
    await Promise.all(Array.from({ length: 40 }, () => startProcess(s, admin, { definitionKey: "busyFlow" })));
    const got = (await Promise.all(polls)).flat();
    const more = (await Promise.all(runners.map((r) => fetchLock(r.token, "busy", { max: 5 })))).flat();
    const ids = [...got, ...more].map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(40);
  });

  test("an expired lock returns the job to the queue; the old holder can no longer complete it", async () => {
    const { s, admin } = env;
    const a = await newRunner("slow");
    const b = await newRunner("fast");
    const inst = await startProcess(s, admin, { definitionKey: "robotFlow" });
    const [task] = (await fetchLock(a.token, "crm", { lock: 1000 })).filter((t) => t.processInstanceId === inst.id);
    expect(task).toBeDefined();
    expect(await fetchLock(b.token, "crm")).toEqual([]);
    expect((await runnerReq(a.token, `/${task.id}/extendLock`, { newDuration: 2000 })).status).toBe(204);
    s.clock.advance(1500);
    expect(await fetchLock(b.token, "crm")).toEqual([]);
    s.clock.advance(1000);
    const [again] = await fetchLock(b.token, "crm");
    expect(again.id).toBe(task.id);
    await expectError(await runnerReq(a.token, `/${task.id}/complete`, {}), 409);
    await expectError(await runnerReq(a.token, `/${task.id}/extendLock`, { newDuration: 1000 }), 409);
    expect((await runnerReq(b.token, `/${task.id}/complete`, {})).status).toBe(204);
  });

  test("failures are retried after the retry timeout, then dead-lettered (failed jobs, monitor JOB_FAILED)", async () => {
    const { s, admin } = env;
    const runner = await newRunner("failing");
    const inst = await startProcess(s, admin, { definitionKey: "flakyFlow" });
    const [t1] = await fetchLock(runner.token, "flaky");
    const r1 = await runnerReq(runner.token, `/${t1.id}/failure`, {
      errorMessage: "CRM down",
      retries: 1,
      retryTimeout: 5000,
    });
    expect(await r1.json()).toEqual({ retries: 1, state: "EXECUTABLE" });
    expect(await fetchLock(runner.token, "flaky")).toEqual([]);
    const monitor = async () =>
      (await (await s.req("GET", "/api/a/definitions/flakyFlow/monitor", { token: admin })).json()) as {
        activities: { activityId: string; byReason: Record<string, number> }[];
      };
    expect((await monitor()).activities.find((a) => a.activityId === "robot")?.byReason).toMatchObject({
      JOB_RETRYING: 1,
      EXECUTING: 0,
    });
    s.clock.advance(5001);
    const [t2] = await fetchLock(runner.token, "flaky");
    expect(t2.id).toBe(t1.id);
    const r2 = await runnerReq(runner.token, `/${t2.id}/failure`, { errorMessage: "still down", retries: 0 });
    expect(await r2.json()).toEqual({ retries: 0, state: "DEADLETTER" });
    const failed = (await (await s.req("GET", "/api/a/instances/failed-jobs", { token: admin })).json()) as {
      id: string;
      state: string;
      exception: string;
    }[];
    expect(failed.find((j) => j.id === t1.id)).toMatchObject({ state: "DEADLETTER", exception: "still down" });
    expect((await monitor()).activities.find((a) => a.activityId === "robot")?.byReason).toMatchObject({
      JOB_FAILED: 1,
      JOB_RETRYING: 0,
    });
    expect(await fetchLock(runner.token, "flaky")).toEqual([]);
    // An operator's retry puts it back in the runners' queue.
    expect((await s.req("POST", `/api/a/instances/failed-jobs/${t1.id}/retry`, { token: admin })).status).toBe(200);
    const [t3] = await fetchLock(runner.token, "flaky");
    expect(t3.processInstanceId).toBe(inst.id);
    expect((await runnerReq(runner.token, `/${t3.id}/complete`, {})).status).toBe(204);
  });

  test("a BPMN error from the runner is caught by the step's boundary event", async () => {
    const { s, admin } = env;
    const runner = await newRunner("erroring");
    const inst = await startProcess(s, admin, { definitionKey: "robotFlow" });
    // The step waits as a job: EXECUTING in the monitor.
    const items = (await (
      await s.req("GET", "/api/a/definitions/robotFlow/monitor/robot", { token: admin })
    ).json()) as { instanceId: string; reason: string }[];
    expect(items.find((i) => i.instanceId === inst.id)?.reason).toBe("EXECUTING");
    const [task] = (await fetchLock(runner.token, "crm")).filter((t) => t.processInstanceId === inst.id);
    const res = await runnerReq(runner.token, `/${task.id}/bpmnError`, {
      errorCode: "NOT_FOUND",
      variables: { why: "gone" },
    });
    expect(res.status).toBe(204);
    expect(openActivities(inst.id)).toEqual(["handle"]);
  });

  test("another tenant's runner cannot see or complete this tenant's jobs", async () => {
    const { s, admin, otherAdmin } = env;
    const mine = await newRunner("mine2");
    const inst = await startProcess(s, admin, { definitionKey: "robotFlow" });
    const [task] = (await fetchLock(mine.token, "crm")).filter((t) => t.processInstanceId === inst.id);
    const bTenant = await s.req("POST", "/api/a/robot-runners", { token: otherAdmin, json: { name: "theirs" } });
    const theirs = (await bTenant.json()) as { token: string };
    await s.req("POST", "/api/a/robots", { token: otherAdmin, json: { key: "crm", name: "their crm" } });
    expect(await fetchLock(theirs.token, "crm")).toEqual([]);
    await expectError(await runnerReq(theirs.token, `/${task.id}/complete`, {}), 404);
    expect((await runnerReq(mine.token, `/${task.id}/complete`, {})).status).toBe(204);
  });
});

describe("the example runner", () => {
  test("runs a robot end to end over HTTP: completes, raises BPMN errors, reports failures", async () => {
    const { s, admin, tenant, baseUrl } = env;
    const runner = await newRunner("example");
    let calls = 0;
    const r = startRobotRunner({
      baseUrl,
      token: runner.token,
      asyncResponseTimeout: 2_000,
      concurrency: 2,
      handlers: {
        mailer: (task) => {
          calls++;
          if (task.variables.mode === "error") throw new RobotBpmnError("NOT_FOUND", "no such customer");
          return { sent: true, via: "example" };
        },
      },
    });
    try {
      const ok = await startProcess(s, admin, { definitionKey: "camundaFlow", variables: { mode: "ok" } });
      const bad = await startProcess(s, admin, { definitionKey: "camundaFlow", variables: { mode: "error" } });
      for (let i = 0; i < 100 && (openActivities(ok.id).length === 0 || openActivities(bad.id).length === 0); i++)
        await Bun.sleep(50);
      expect(openActivities(ok.id)).toEqual(["after"]);
      expect(s.platform.processRuntime.getVariables(tenant.id, ok.id)).toMatchObject({ sent: true, via: "example" });
      expect(openActivities(bad.id)).toEqual(["handle"]);
      expect(calls).toBe(2);
    } finally {
      await r.stop();
    }
  });
});

function fetchLockRaw(token: string, json: unknown) {
  return runnerReq(token, "/fetchAndLock", json);
}
