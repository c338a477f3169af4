import { describe, expect, test } from "bun:test";
import { expectError } from "../harness/fixtures";
import {
  s,
  admin,
  manager,
  modeler,
  approver,
  approver2,
  starter,
  outsider,
  otherAdmin,
  REVIEW_FORM,
  newTask,
  useTaskScenario,
} from "./tasks.setup";

useTaskScenario();

describe("task visibility", () => {
  test("candidates through a process role, Managers and Admins see the task; others get 404", async () => {
    const { taskId, task } = await newTask();
    expect(task).toMatchObject({
      name: "Review request",
      candidateGroups: ["approvers"],
      formKey: "review-form",
      formVersionId: expect.any(String),
    });
    for (const who of [approver, manager, admin]) {
      const list = await (await s.req("GET", "/api/a/tasks", { token: who.token })).json();
      expect(list.map((t: { id: string }) => t.id)).toContain(taskId);
      expect((await s.req("GET", `/api/a/tasks/${taskId}`, { token: who.token })).status).toBe(200);
    }
    for (const who of [outsider, modeler, starter]) {
      const list = await (await s.req("GET", "/api/a/tasks", { token: who.token })).json();
      expect(list.map((t: { id: string }) => t.id)).not.toContain(taskId);
      await expectError(await s.req("GET", `/api/a/tasks/${taskId}`, { token: who.token }), 404);
      await expectError(await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: who.token }), 404);
    }
    await expectError(await s.req("GET", `/api/a/tasks/${taskId}`, { token: otherAdmin.token }), 404);
  });

  test("mine=true narrows to tasks assigned to the caller, even for a Manager", async () => {
    const { taskId } = await newTask();
    expect((await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: manager.token })).status).toBe(200);
    const mine = await (await s.req("GET", "/api/a/tasks?mine=true", { token: manager.token })).json();
    expect(mine.map((t: { id: string }) => t.id)).toEqual([taskId]);
    expect(await (await s.req("GET", "/api/a/tasks?mine=true", { token: approver.token })).json()).toEqual([]);
    await s.req("POST", `/api/a/tasks/${taskId}/unclaim`, { token: manager.token });
  });

  test("the detail carries the form of the locked version, unchanged by a later form edit", async () => {
    const { taskId } = await newTask();
    const edited = {
      ...REVIEW_FORM.schema,
      fields: [...REVIEW_FORM.schema.fields, { key: "extra", type: "text", required: true }],
    };
    expect(
      (
        await s.req("PUT", "/api/a/definitions/approval/forms/review-form", {
          token: modeler.token,
          json: { name: "Review", schema: edited },
        })
      ).status,
    ).toBe(200);
    await s.req("POST", "/api/a/definitions/approval/forms/review-form/publish", { token: modeler.token, json: {} });
    const d = await (await s.req("GET", `/api/a/tasks/${taskId}`, { token: approver.token })).json();
    expect(d.form.num).toBe(1);
    expect(d.form.schema.fields.map((f: { key: string }) => f.key)).toEqual(["decision", "reason"]);
    // A task created after the publish locks the new version.
    const later = await newTask();
    const d2 = await (await s.req("GET", `/api/a/tasks/${later.taskId}`, { token: approver.token })).json();
    expect(d2.form.num).toBe(2);
    // The old task completes against its own version: `extra` is not required there.
    await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token });
    expect(
      (
        await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
          token: approver.token,
          json: { variables: { decision: "approve" } },
        })
      ).status,
    ).toBe(200);
    // Back to the first version for the other scenarios.
    await s.req("POST", "/api/a/definitions/approval/forms/review-form/publish", {
      token: modeler.token,
      json: { versionId: d.form.versionId },
    });
  });

  test("page size defaults to 100 and is capped at 200", async () => {
    for (let i = 0; i < 205; i++)
      await s.platform.processRuntime.startInstance(s.platform.tenants.bySlug("tasks-a")!.id, {
        definitionKey: "approval",
        businessKey: `BULK-${i}`,
      });
    expect((await (await s.req("GET", "/api/a/tasks", { token: manager.token })).json()).length).toBe(100);
    expect((await (await s.req("GET", "/api/a/tasks?size=500", { token: manager.token })).json()).length).toBe(200);
    const p1 = await (await s.req("GET", "/api/a/tasks?size=200&page=1", { token: manager.token })).json();
    expect(p1.length).toBeGreaterThan(0);
    await expectError(await s.req("GET", "/api/a/tasks?page=-1", { token: manager.token }), 400);
  });
});

describe("operation order", () => {
  test("a task with candidates must be claimed first; someone else's claim is a 409; completing twice is a 409", async () => {
    const { taskId, instanceId } = await newTask();
    await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
        token: approver.token,
        json: { variables: { decision: "approve" } },
      }),
      409,
      /claim/,
    );
    expect(
      (await (await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token })).json()).assignee,
    ).toBe(approver.id);
    await expectError(await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver2.token }), 409);
    await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
        token: approver2.token,
        json: { variables: { decision: "approve" } },
      }),
      409,
    );
    await expectError(await s.req("POST", `/api/a/tasks/${taskId}/unclaim`, { token: approver2.token }), 403);
    const done = await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
      token: approver.token,
      json: { variables: { decision: "approve", approved: true } },
    });
    expect(done.status).toBe(200);
    expect((await done.json()).completedBy).toBe(approver.id);
    await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
        token: approver.token,
        json: { variables: { decision: "approve" } },
      }),
      409,
    );
    const hist = await (await s.req("GET", `/api/a/history/instances/${instanceId}`, { token: manager.token })).json();
    expect(hist.state).toBe("COMPLETED");
    const acts = await (
      await s.req("GET", `/api/a/history/instances/${instanceId}/activities`, { token: manager.token })
    ).json();
    expect(acts.find((a: { activityId: string }) => a.activityId === "review")).toMatchObject({
      who: approver.id,
      channel: "REST",
    });
    const completed = await (await s.req("GET", "/api/a/tasks/completed", { token: approver.token })).json();
    expect(completed.map((t: { id: string }) => t.id)).toContain(taskId);
  });

  test("unclaim returns the task to the group", async () => {
    const { taskId } = await newTask();
    await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token });
    const back = await (await s.req("POST", `/api/a/tasks/${taskId}/unclaim`, { token: approver.token })).json();
    expect(back.assignee).toBeNull();
    await expectError(await s.req("POST", `/api/a/tasks/${taskId}/unclaim`, { token: approver.token }), 409);
    expect((await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver2.token })).status).toBe(200);
  });

  test("two concurrent completions: exactly one wins", async () => {
    const { taskId } = await newTask();
    await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token });
    const body = { variables: { decision: "approve", approved: true } };
    const results = await Promise.all(
      [1, 2, 3].map(() => s.req("POST", `/api/a/tasks/${taskId}/complete`, { token: approver.token, json: body })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });
});

describe("required form fields", () => {
  test("missing required fields answer 400 with the pinned message and nothing is written", async () => {
    const { taskId, instanceId } = await newTask();
    await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token });
    const res = await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
      token: approver.token,
      json: { variables: { decision: "reject", note: "x" } },
    });
    await expectError(res, 400, /^Campos obrigatórios não preenchidos: reason$/);
    const vars = await (await s.req("GET", `/api/a/tasks/${taskId}/variables`, { token: approver.token })).json();
    expect(vars.note).toBeUndefined();
    expect(vars.decision).toBeUndefined();
    expect((await (await s.req("GET", `/api/a/tasks/${taskId}`, { token: approver.token })).json()).state).toBe("OPEN");
    expect(
      (await (await s.req("GET", `/api/a/instances/${instanceId}`, { token: manager.token })).json()).activeActivityIds,
    ).toEqual(["review"]);
  });

  test("a field hidden by its visibleIf rule is not required, and saved variables count", async () => {
    const { taskId } = await newTask();
    await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token });
    await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/complete`, { token: approver.token, json: {} }),
      400,
      /decision/,
    );
    const saved = await s.req("POST", `/api/a/tasks/${taskId}/variables`, {
      token: approver.token,
      json: { variables: { decision: "approve" } },
    });
    expect((await saved.json()).decision).toBe("approve");
    expect(
      (await s.req("POST", `/api/a/tasks/${taskId}/complete`, { token: approver.token, json: { variables: {} } }))
        .status,
    ).toBe(200);
  });
});

describe("names, not ids", () => {
  test("task answers name the assignee and who completed; the instance names who started it", async () => {
    const { taskId, instanceId, task } = await newTask();
    expect(task.assigneeUser).toBeNull();
    await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token });
    const person = { id: approver.id, name: expect.stringMatching(/^U\d+$/), email: approver.email };
    const list = await (await s.req("GET", `/api/a/tasks?instanceId=${instanceId}`, { token: manager.token })).json();
    expect(list[0].assigneeUser).toEqual(person);
    const detail = await (await s.req("GET", `/api/a/tasks/${taskId}`, { token: approver.token })).json();
    expect(detail.assigneeUser).toEqual(person);
    // No model is configured on this server: the detail says ai-suggest cannot answer, so clients do not offer it.
    expect(detail.aiSuggestAvailable).toBe(false);
    const inst = await (await s.req("GET", `/api/a/instances/${instanceId}`, { token: manager.token })).json();
    expect(inst.startedByUser).toEqual({ id: starter.id, name: expect.stringMatching(/^U\d+$/), email: starter.email });
    await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
      token: approver.token,
      json: { variables: { decision: "approve" } },
    });
    const done = await (await s.req("GET", "/api/a/tasks/completed", { token: approver.token })).json();
    expect(done.find((t: { id: string }) => t.id === taskId).completedByUser).toEqual(person);
    // The fields are documented in the API description.
    const doc = await (await s.req("GET", "/v3/api-docs")).json();
    expect(doc.components.schemas.Task.properties.assigneeUser).toBeDefined();
    expect(JSON.stringify(doc.components.schemas.InstanceDetail)).toContain('"startedByUser"');
  });
});
