import { describe, expect, test } from "bun:test";
import { expectError } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import {
  APPROVAL,
  s,
  modeler,
  manager,
  user,
  approver,
  outsider,
  otherAdmin,
  useProcessRoutesScenario,
} from "./process-routes.setup";

useProcessRoutesScenario();

describe("deploying definitions", () => {
  test("answers the pinned body and lists the definition with its startFormKey", async () => {
    const res = await deployBpmn(s, modeler.token, APPROVAL, "approval.bpmn20.xml");
    expect(res.definitions).toEqual([
      { key: "approval", definitionId: expect.any(String), version: 1, name: "Approval", type: "BPMN" },
    ]);
    expect(res.warnings).toBeArray();
    const list = await (await s.req("GET", "/api/a/definitions", { token: user.token })).json();
    expect(list.map((d: { key: string }) => d.key)).toEqual(["approval"]);
    const detail = await (await s.req("GET", "/api/a/definitions/approval", { token: user.token })).json();
    expect(detail.startFormKey).toBe("request");
  });

  test("refuses malformed XML, a model without an executable process, an unknown extension and a USER", async () => {
    const fd = (xml: string, name = "x.bpmn") => {
      const f = new FormData();
      f.append("file", new File([xml], name));
      return f;
    };
    await expectError(
      await s.req("POST", "/api/a/definitions/deploy", { token: modeler.token, body: fd("<definitions") }),
      400,
    );
    await expectError(
      await s.req("POST", "/api/a/definitions/deploy", {
        token: modeler.token,
        body: fd(APPROVAL.replace('isExecutable="true"', 'isExecutable="false"')),
      }),
      400,
      /executable/i,
    );
    await expectError(
      await s.req("POST", "/api/a/definitions/deploy", { token: modeler.token, body: fd(APPROVAL, "x.txt") }),
      400,
    );
    await expectError(await s.req("POST", "/api/a/definitions/deploy", { token: user.token, body: fd(APPROVAL) }), 403);
  });

  test("a second deploy creates version 2; publishing moves `published`; the XML of a version is exported", async () => {
    const v2 = await deployBpmn(s, modeler.token, APPROVAL.replace('name="Approval"', 'name="Approval v2"'));
    expect(v2.definitions[0].version).toBe(2);
    let versions = await (await s.req("GET", "/api/a/definitions/approval/versions", { token: modeler.token })).json();
    expect(versions.filter((v: { published: boolean }) => v.published)).toEqual([]);
    const v1 = versions.find((v: { version: number }) => v.version === 1);
    const pub = await s.req("POST", `/api/a/definitions/approval/versions/${v1.definitionId}/publish`, {
      token: modeler.token,
    });
    expect(pub.status).toBe(200);
    versions = await (await s.req("GET", "/api/a/definitions/approval/versions", { token: modeler.token })).json();
    expect(
      versions.filter((v: { published: boolean }) => v.published).map((v: { version: number }) => v.version),
    ).toEqual([1]);
    // Deploying a new version does not change the published one (and says so).
    const v3 = await deployBpmn(s, modeler.token, APPROVAL);
    expect(v3.warnings.join(" ")).toMatch(/published/);
    const xml = await s.req("GET", `/api/a/definitions/approval/versions/${v1.definitionId}/xml`, {
      token: modeler.token,
    });
    expect(xml.headers.get("content-type")).toContain("xml");
    expect(await xml.text()).toContain('name="Approval"');
    await expectError(await s.req("GET", "/api/a/definitions/approval/versions", { token: user.token }), 403);
  });
});

describe("starting instances", () => {
  test("starts the published version and answers the pinned body with the tasks the caller may see", async () => {
    const mine = await startProcess(s, user.token, {
      definitionKey: "approval",
      businessKey: "REQ-1",
      variables: { amount: 10 },
    });
    expect(mine).toMatchObject({
      businessKey: "REQ-1",
      definitionKey: "approval",
      version: 1,
      type: "BPMN",
      ended: false,
    });
    // The USER who started it is no candidate of the review task: it is not listed for them.
    expect(mine.activeTasks).toEqual([]);
    const theirs = await startProcess(s, approver.token, { definitionKey: "approval", businessKey: "REQ-2" });
    expect(theirs.activeTasks).toEqual([
      { id: expect.any(String), name: "Review request", activityId: "review", assignee: null },
    ]);
  });

  test("applies the definition's business key template, and refuses with 422 when a variable is missing", async () => {
    // A start before the change: what the start path keeps of the key must follow the change at once.
    const plain = await startProcess(s, user.token, { definitionKey: "approval", variables: { customer: "acme" } });
    expect(plain.businessKey).toMatch(/^DOC-\d{8}-/);
    const cfg = await s.req("PUT", "/api/a/definitions/approval/config", {
      token: modeler.token,
      json: { businessKeyTemplate: "APR-${customer}-${date:yyyy}" },
    });
    expect((await cfg.json()).businessKeyTemplate).toBe("APR-${customer}-${date:yyyy}");
    // GET answers what is stored: the template, and null or the default for what was never set.
    const read = await s.req("GET", "/api/a/definitions/approval/config", { token: modeler.token });
    expect(await read.json()).toEqual({
      businessKeyTemplate: "APR-${customer}-${date:yyyy}",
      attachmentPolicy: null,
      mcpPolicy: "NONE",
      historyTimeToLive: null,
    });
    await expectError(await s.req("GET", "/api/a/definitions/approval/config", { token: user.token }), 403);
    const ok = await startProcess(s, user.token, { definitionKey: "approval", variables: { customer: "acme" } });
    expect(ok.businessKey).toMatch(/^APR-acme-\d{4}$/);
    const before = (await (await s.req("GET", "/api/a/dashboard", { token: manager.token })).json()).runningInstances;
    const res = await s.req("POST", "/api/a/instances", {
      token: user.token,
      json: { definitionKey: "approval", variables: {} },
    });
    const body = await expectError(res, 422);
    expect(body.fieldErrors).toEqual([
      { field: "customer", message: expect.stringContaining("required by the business key template") },
    ]);
    const after = (await (await s.req("GET", "/api/a/dashboard", { token: manager.token })).json()).runningInstances;
    expect(after).toBe(before);
    await s.req("PUT", "/api/a/definitions/approval/config", {
      token: modeler.token,
      json: { businessKeyTemplate: null },
    });
    const again = await startProcess(s, user.token, { definitionKey: "approval", variables: {} });
    expect(again.businessKey).toMatch(/^DOC-\d{8}-/);
  });

  test("config refuses an unknown upload mode or MCP policy with 400", async () => {
    const bad = { uploadMode: "WEIRD", uploadRoles: [], previewRoles: [], replaceRoles: [] };
    await expectError(
      await s.req("PUT", "/api/a/definitions/approval/config", {
        token: modeler.token,
        json: { attachmentPolicy: bad },
      }),
      400,
    );
    await expectError(
      await s.req("PUT", "/api/a/definitions/approval/config", { token: modeler.token, json: { mcpPolicy: "ALL" } }),
      400,
    );
    const eff = await (
      await s.req("GET", "/api/a/definitions/approval/attachment-policy", { token: modeler.token })
    ).json();
    expect(eff.uploadMode).toBe("AD_HOC");
  });

  test("config, catalog toggle and policies answer 404 for an unknown key and for another tenant's key", async () => {
    for (const [key, token] of [
      ["nope", modeler.token],
      ["approval", otherAdmin.token], // the key exists, in tenant proc-a only
    ] as const) {
      await expectError(
        await s.req("PUT", `/api/a/definitions/${key}/config`, { token, json: { mcpPolicy: "NONE" } }),
        404,
      );
      await expectError(await s.req("PATCH", `/api/a/definitions/${key}/toggle`, { token }), 404);
      await expectError(await s.req("GET", `/api/a/definitions/${key}/attachment-policy`, { token }), 404);
      await expectError(await s.req("GET", `/api/a/definitions/${key}/mcp-policy`, { token }), 404);
      await expectError(await s.req("GET", `/api/a/definitions/${key}/config`, { token }), 404);
    }
  });

  test("refuses an unknown definition (404), a malformed body (400) and a suspended definition", async () => {
    await expectError(
      await s.req("POST", "/api/a/instances", { token: user.token, json: { definitionKey: "nope" } }),
      404,
    );
    await expectError(await s.req("POST", "/api/a/instances", { token: user.token, json: { variables: 3 } }), 400);
    expect((await s.req("PUT", "/api/a/definitions/approval/suspend", { token: modeler.token })).status).toBe(200);
    await expectError(
      await s.req("POST", "/api/a/instances", { token: user.token, json: { definitionKey: "approval" } }),
      409,
      /suspended/,
    );
    expect((await s.req("PUT", "/api/a/definitions/approval/activate", { token: modeler.token })).status).toBe(200);
    await expectError(await s.req("PUT", "/api/a/definitions/approval/suspend", { token: user.token }), 403);
  });
});

describe("instance visibility", () => {
  test("a USER sees the instances they started; another user gets 404; a Manager sees all", async () => {
    const inst = await startProcess(s, user.token, {
      definitionKey: "approval",
      businessKey: "VIS-1",
      variables: { note: "x" },
    });
    const detail = await (await s.req("GET", `/api/a/instances/${inst.id}`, { token: user.token })).json();
    expect(detail.variables).toEqual({ note: "x" });
    expect(detail.activeActivityIds).toEqual(["review"]);
    await expectError(await s.req("GET", `/api/a/instances/${inst.id}`, { token: outsider.token }), 404);
    await expectError(await s.req("GET", `/api/a/instances/${inst.id}/diagram`, { token: outsider.token }), 404);
    expect((await s.req("GET", `/api/a/instances/${inst.id}`, { token: manager.token })).status).toBe(200);
    const outsiderList = await (await s.req("GET", "/api/a/instances", { token: outsider.token })).json();
    expect(outsiderList.content.find((i: { id: string }) => i.id === inst.id)).toBeUndefined();
    const managerList = await (await s.req("GET", "/api/a/instances?size=100", { token: manager.token })).json();
    expect(managerList.content.find((i: { id: string }) => i.id === inst.id)).toBeDefined();
  });

  test("a candidate through a process role sees the instance; variable search honours visibility", async () => {
    const inst = await startProcess(s, user.token, { definitionKey: "approval", variables: { ticket: "T-77" } });
    expect((await s.req("GET", `/api/a/instances/${inst.id}`, { token: approver.token })).status).toBe(200);
    const found = await (
      await s.req("GET", "/api/a/instances/search?varName=ticket&varValue=T-77", { token: approver.token })
    ).json();
    expect(found.content.map((i: { id: string }) => i.id)).toEqual([inst.id]);
    const hidden = await (
      await s.req("GET", "/api/a/instances/search?varName=ticket&varValue=T-77", { token: outsider.token })
    ).json();
    expect(hidden.content).toEqual([]);
  });

  test("page size is capped at 100", async () => {
    const page = await (await s.req("GET", "/api/a/instances?size=500", { token: manager.token })).json();
    expect(page.size).toBe(100);
  });

  test("the diagram is an SVG with the active step highlighted, or the XML on request", async () => {
    const inst = await startProcess(s, user.token, { definitionKey: "approval" });
    const svg = await s.req("GET", `/api/a/instances/${inst.id}/diagram`, { token: user.token });
    expect(svg.headers.get("content-type")).toContain("image/svg+xml");
    expect(await svg.text()).toContain("<svg");
    const xml = await s.req("GET", `/api/a/instances/${inst.id}/diagram?format=xml`, { token: user.token });
    expect(await xml.text()).toContain("<definitions");
  });
});

describe("instance control", () => {
  test("cancel, suspend and activate need Manager; a USER gets 403", async () => {
    const inst = await startProcess(s, user.token, { definitionKey: "approval" });
    await expectError(await s.req("DELETE", `/api/a/instances/${inst.id}`, { token: user.token }), 403);
    await expectError(await s.req("PATCH", `/api/a/instances/${inst.id}/suspend`, { token: user.token }), 403);
    await expectError(await s.req("GET", "/api/a/instances/failed-jobs", { token: user.token }), 403);
    const susp = await (await s.req("PATCH", `/api/a/instances/${inst.id}/suspend`, { token: manager.token })).json();
    expect(susp.state).toBe("SUSPENDED");
    await expectError(await s.req("PATCH", `/api/a/instances/${inst.id}/suspend`, { token: manager.token }), 409);
    expect(
      (await (await s.req("PATCH", `/api/a/instances/${inst.id}/activate`, { token: manager.token })).json()).state,
    ).toBe("ACTIVE");
    const cancelled = await (await s.req("DELETE", `/api/a/instances/${inst.id}`, { token: manager.token })).json();
    expect(cancelled.ended).toBe(true);
    const hist = await (await s.req("GET", `/api/a/history/instances/${inst.id}`, { token: user.token })).json();
    expect(hist.state).toBe("CANCELLED");
    expect(await (await s.req("GET", "/api/a/instances/failed-jobs", { token: manager.token })).json()).toBeArray();
  });
});

describe("monitor and dashboard", () => {
  test("the monitor counts work parked per step by reason, for Managers only", async () => {
    const mon = await (await s.req("GET", "/api/a/definitions/approval/monitor", { token: manager.token })).json();
    const review = mon.activities.find((a: { activityId: string }) => a.activityId === "review");
    expect(review.byReason.USER_TASK).toBe(review.count);
    expect(review.count).toBe(mon.runningInstances);
    expect(mon.bpmnXml).toContain("<definitions");
    const items = await (
      await s.req("GET", "/api/a/definitions/approval/monitor/review", { token: manager.token })
    ).json();
    expect(items.length).toBe(review.count);
    expect(items[0]).toMatchObject({ reason: "USER_TASK", taskId: expect.any(String) });
    await expectError(await s.req("GET", "/api/a/definitions/approval/monitor", { token: user.token }), 403);
    await expectError(await s.req("GET", "/api/a/definitions/approval/monitor", { token: modeler.token }), 403);
  });

  test("dashboard counters follow the caller's visibility; definitions stay tenant-wide", async () => {
    const mgr = await (await s.req("GET", "/api/a/dashboard", { token: manager.token })).json();
    const out = await (await s.req("GET", "/api/a/dashboard", { token: outsider.token })).json();
    expect(out.definitions).toBe(mgr.definitions);
    expect(out.runningInstances).toBe(0);
    expect(mgr.runningInstances).toBeGreaterThan(0);
  });
});
