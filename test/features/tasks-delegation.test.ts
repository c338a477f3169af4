import { describe, expect, test } from "bun:test";
import { apiKey, expectError } from "../harness/fixtures";
import { s, admin, manager, approver, approver2, outsider, otherAdmin, newTask, useTaskScenario } from "./tasks.setup";

useTaskScenario();

describe("delegation, notifications and comments", () => {
  test("delegating notifies the new assignee, who can then complete", async () => {
    const { taskId } = await newTask();
    // A candidate who has not claimed the task may not hand it on.
    await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/delegate`, { token: approver.token, json: { userId: approver2.id } }),
      403,
    );
    await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token });
    await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/delegate`, {
        token: approver.token,
        json: { userId: otherAdmin.id },
      }),
      400,
    );
    await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/delegate`, {
        token: approver2.token,
        json: { userId: approver2.id },
      }),
      403,
    );
    const res = await s.req("POST", `/api/a/tasks/${taskId}/delegate`, {
      token: approver.token,
      json: { userId: approver2.id },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).assignee).toBe(approver2.id);
    const notes = await (await s.req("GET", "/api/a/notifications", { token: approver2.token })).json();
    expect(notes.content[0]).toMatchObject({ type: "TASK_DELEGATED" });
    expect(
      (
        await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
          token: approver2.token,
          json: { variables: { decision: "approve" } },
        })
      ).status,
    ).toBe(200);
  });

  test("comments are listed oldest first for whoever sees the task", async () => {
    const { taskId } = await newTask();
    const c1 = await s.req("POST", `/api/a/tasks/${taskId}/comments`, {
      token: approver.token,
      json: { message: "first" },
    });
    expect(c1.status).toBe(201);
    expect(await c1.json()).toEqual({
      id: expect.any(String),
      userId: approver.id,
      author: { id: approver.id, name: expect.any(String), email: approver.email },
      message: "first",
      time: expect.any(String),
    });
    await s.req("POST", `/api/a/tasks/${taskId}/comments`, { token: manager.token, json: { message: "second" } });
    const list = await (await s.req("GET", `/api/a/tasks/${taskId}/comments`, { token: approver2.token })).json();
    expect(list.map((c: { message: string }) => c.message)).toEqual(["first", "second"]);
    await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/comments`, { token: approver.token, json: { message: "  " } }),
      400,
    );
    await expectError(await s.req("GET", `/api/a/tasks/${taskId}/comments`, { token: outsider.token }), 404);
  });
});

describe("API keys on tasks", () => {
  test("a key sees tasks but cannot claim; it completes only tasks assigned to nobody; the channel is recorded", async () => {
    const key = await apiKey(s, admin.token, ["read", "write"], 0);
    const { taskId } = await newTask();
    const list = await (
      await s.req(
        "GET",
        `/api/a/tasks?instanceId=${(await (await s.req("GET", `/api/a/tasks/${taskId}`, { apiKey: key.key })).json()).instanceId}`,
        { apiKey: key.key },
      )
    ).json();
    expect(list.map((t: { id: string }) => t.id)).toContain(taskId);
    await expectError(await s.req("POST", `/api/a/tasks/${taskId}/claim`, { apiKey: key.key }), 403);
    const done = await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
      apiKey: key.key,
      json: { variables: { decision: "approve" } },
    });
    expect(done.status).toBe(200);
    expect((await done.json()).channel).toBe("API_KEY");
    const readOnly = await apiKey(s, admin.token, ["read"], 0);
    const other = await newTask();
    const refused = await s.req("POST", `/api/a/tasks/${other.taskId}/complete`, { apiKey: readOnly.key, json: {} });
    expect(refused.status).toBe(403);
  });
});
