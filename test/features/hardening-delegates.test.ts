import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";

// Issue 17, defect 2: an http service task the SSRF policy refuses (or whose host does not resolve) never answers 500.
let s: TestServer;
let admin: Awaited<ReturnType<typeof userInTenant>>;
let manager: Awaited<ReturnType<typeof userInTenant>>;

const model = (key: string, url: string, async = false) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="t">
  <process id="${key}" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="call"/>
    <serviceTask id="call" flowable:type="http"${async ? ' flowable:async="true"' : ""}>
      <extensionElements><flowable:field name="requestUrl"><flowable:string>${url}</flowable:string></flowable:field></extensionElements>
    </serviceTask>
    <sequenceFlow id="f1" sourceRef="call" targetRef="t"/><userTask id="t" name="After"/>
  </process>
</definitions>`;

beforeAll(async () => {
  s = await startTestServer();
  const t = await createTenant(s, "delegates");
  admin = await userInTenant(s, t, "ADMIN");
  manager = await userInTenant(s, t, "MANAGER");
});
afterAll(() => s.close());

describe("http service task refused at start (synchronous)", () => {
  for (const [name, url, reason] of [
    ["loopback", "http://127.0.0.1:9/x", /non-public address/],
    ["cloud metadata", "http://169.254.169.254/latest/meta-data", /non-public address/],
    ["unresolvable host", "http://no-such-host.invalid/x", /resolve|not found|ENOTFOUND/i],
  ] as const) {
    test(`${name}: 4xx with the reason, nothing half-started`, async () => {
      const key = `ssrf${name.replace(/\W/g, "")}`;
      await deployBpmn(s, admin.token, model(key, url));
      const res = await s.req("POST", "/api/a/instances", { token: admin.token, json: { definitionKey: key } });
      const body = await expectError(res, 422, reason);
      expect(String(body.message)).toContain("call");
      const list = await (await s.req("GET", `/api/a/instances?definitionKey=${key}`, { token: admin.token })).json();
      expect(list.content ?? list).toHaveLength(0);
    });
  }
});

describe("http service task refused in a job (async)", () => {
  test("the start answers 201; the job fails, retries and dead-letters with the reason", async () => {
    await deployBpmn(s, admin.token, model("ssrfasync", "http://127.0.0.1:9/x", true));
    const res = await s.req("POST", "/api/a/instances", { token: admin.token, json: { definitionKey: "ssrfasync" } });
    expect(res.status).toBe(201);
    const inst = (await res.json()) as { id: string };
    const failed = async () => {
      const jobs = (await (await s.req("GET", "/api/a/instances/failed-jobs", { token: manager.token })).json()) as {
        instanceId: string;
        state: string;
        retries: number;
        exception: string;
      }[];
      if (!Array.isArray(jobs)) throw new Error(JSON.stringify(jobs));
      return jobs.find((j) => j.instanceId === inst.id);
    };
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      await s.platform.ports.processRuntime.runDueJobs();
      const job = await failed();
      if (job) seen.push(`${job.state}:${job.retries}`);
      s.clock.advance(6 * 60_000); // past the default retry wait, well inside the token's hour
    }
    expect(seen[0]).toMatch(/^EXECUTABLE:\d+$/); // a failure with retries left first
    expect(seen.at(-1)).toBe("DEADLETTER:0");
    const job = await failed();
    expect(job?.exception).toMatch(/Service task 'call' \(http\) failed: .*non-public address 127\.0\.0\.1/);
    const detail = await (await s.req("GET", `/api/a/instances/${inst.id}`, { token: admin.token })).json();
    expect(detail.activeActivityIds).toEqual(["call"]);
  });
});
