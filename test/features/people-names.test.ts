import { describe, expect, test } from "bun:test";
import { deployBpmn, startProcess } from "../harness/process";
import { admin, approver, manager, modeler, newTask, otherAdmin, s, starter, useTaskScenario } from "./tasks.setup";

// Names, not ids: comments, the activity history and file lists name people beside their ids (issue 30), and only
// the tenant's own people: another tenant's user id, however it got into a model, stays a bare id.

useTaskScenario();

const named = (u: { id: string; email: string }) => ({
  id: u.id,
  name: expect.stringMatching(/^U\d+$/),
  email: u.email,
});

describe("names beside ids", () => {
  test("a comment names its author, the history names who did each step, a file names who uploaded it", async () => {
    const { taskId, instanceId } = await newTask();
    const posted = await s.req("POST", `/api/a/tasks/${taskId}/comments`, {
      token: approver.token,
      json: { message: "looking at it" },
    });
    expect(posted.status).toBe(201);
    expect((await posted.json()).author).toEqual(named(approver));
    const comments = await (await s.req("GET", `/api/a/tasks/${taskId}/comments`, { token: manager.token })).json();
    expect(comments).toEqual([expect.objectContaining({ userId: approver.id, author: named(approver) })]);

    const f = new FormData();
    f.append("file", new Blob(["hello"], { type: "text/plain" }), "note.txt");
    f.append("entityType", "PROCESS_INSTANCE");
    f.append("entityId", instanceId);
    const up = await s.req("POST", "/api/a/attachments", { token: admin.token, body: f });
    expect(up.status).toBe(201);
    const files = await (
      await s.req("GET", `/api/a/attachments?entityType=PROCESS_INSTANCE&entityId=${instanceId}`, {
        token: admin.token,
      })
    ).json();
    expect(files[0]).toMatchObject({ uploadedBy: admin.id, uploadedByUser: named(admin) });

    await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token });
    const open = await (await s.req("GET", `/api/a/instances/${instanceId}`, { token: manager.token })).json();
    expect(open.activeTasks[0]).toMatchObject({ id: taskId, assigneeUser: named(approver) });
    await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
      token: approver.token,
      json: { variables: { decision: "approve" } },
    });
    const history = await (
      await s.req("GET", `/api/a/history/instances/${instanceId}/activities`, { token: manager.token })
    ).json();
    const review = history.find((a: { taskId: string | null }) => a.taskId === taskId);
    expect(review).toMatchObject({ who: approver.id, whoUser: named(approver) });
    // The instance's history detail lists its tasks with the same names as the task routes.
    const detail = await (
      await s.req("GET", `/api/a/history/instances/${instanceId}`, { token: manager.token })
    ).json();
    expect(detail.tasks.find((t: { id: string }) => t.id === taskId)).toMatchObject({
      completedBy: approver.id,
      completedByUser: named(approver),
      assigneeUser: named(approver),
    });
    // A step no person did names no one.
    for (const a of history.filter((x: { who: string | null }) => x.who === null)) expect(a.whoUser).toBeNull();

    const doc = JSON.stringify((await (await s.req("GET", "/v3/api-docs")).json()).components.schemas);
    for (const field of ['"author"', '"whoUser"', '"uploadedByUser"']) expect(doc).toContain(field);
  });

  test("another tenant's user named in a model is never resolved: no name, no e-mail", async () => {
    // A modeler may write any id into camunda:assignee; the other tenant's admin's id must not reveal who that is.
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  targetNamespace="t">
  <process id="foreign" isExecutable="true">
    <startEvent id="s"/>
    <userTask id="t" name="Foreign" camunda:assignee="${otherAdmin.id}"/>
    <userTask id="u" name="Mine" camunda:assignee="${starter.id}"/>
    <endEvent id="e"/>
    <sequenceFlow id="f0" sourceRef="s" targetRef="t"/>
    <sequenceFlow id="f1" sourceRef="t" targetRef="u"/>
    <sequenceFlow id="f2" sourceRef="u" targetRef="e"/>
  </process>
</definitions>`;
    await deployBpmn(s, modeler.token, xml, "foreign.bpmn");
    const inst = await startProcess(s, starter.token, { definitionKey: "foreign" });
    const tasks = await (await s.req("GET", `/api/a/tasks?instanceId=${inst.id}`, { token: manager.token })).json();
    expect(tasks[0]).toMatchObject({ assignee: otherAdmin.id, assigneeUser: null });
    const detail = await (await s.req("GET", `/api/a/tasks/${tasks[0].id}`, { token: manager.token })).json();
    expect(detail.assigneeUser).toBeNull();
    const text = JSON.stringify([tasks, detail]);
    expect(text).not.toContain(otherAdmin.email);
    const inst2 = await (await s.req("GET", `/api/a/instances/${inst.id}`, { token: manager.token })).json();
    expect(inst2.activeTasks[0]).toMatchObject({ assignee: otherAdmin.id, assigneeUser: null });
    expect(JSON.stringify(inst2)).not.toContain(otherAdmin.email);
    // The tenant's own member on the same kind of field is named.
    expect(
      (await (await s.req("GET", `/api/a/instances/${inst.id}`, { token: manager.token })).json()).startedByUser,
    ).toEqual(named(starter));
  });
});
