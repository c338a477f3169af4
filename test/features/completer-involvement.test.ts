import { describe, expect, test } from "bun:test";
import { startProcess } from "../harness/process";
import { admin, approver, newTask, s, useTaskScenario } from "./tasks.setup";

useTaskScenario();

/** The user involvements the engine command of request `send` wrote (seen by a write hook inside its transaction). */
async function involvementsWrittenBy(send: () => Promise<Response>): Promise<{ status: number; written: string[] }> {
  const written: string[] = [];
  const off = s.platform.kernel.writeHooks.add((c) => {
    if (c.kind === "bpmn") for (const i of c.changes.involvements) if (i.kind === "user") written.push(i.principal);
  });
  try {
    return { status: (await send()).status, written };
  } finally {
    off();
  }
}

const complete = (taskId: string, token: string) =>
  s.req("POST", `/api/a/tasks/${taskId}/complete`, { token, json: { variables: { decision: "approve" } } });

describe("who completes a task takes part in its instance", () => {
  test("a completer other than the starter is involved by the completion", async () => {
    const { taskId } = await newTask();
    expect((await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token })).status).toBe(200);
    const { status, written } = await involvementsWrittenBy(() => complete(taskId, approver.token));
    expect(status).toBe(200);
    expect(written).toEqual([approver.id]);
  });

  test("the starter completing a task of their own instance writes no involvement again", async () => {
    const inst = await startProcess(s, admin.token, { definitionKey: "approval" });
    const tasks = await (await s.req("GET", `/api/a/tasks?instanceId=${inst.id}`, { token: admin.token })).json();
    expect((await s.req("POST", `/api/a/tasks/${tasks[0].id}/claim`, { token: admin.token })).status).toBe(200);
    const { status, written } = await involvementsWrittenBy(() => complete(tasks[0].id, admin.token));
    expect(status).toBe(200);
    expect(written).toEqual([]);
    // The start's involvement is still what makes the ended instance theirs.
    const row = s.platform.engineSqlite
      .query("SELECT COUNT(*) AS c FROM involvements WHERE instance_id = ? AND kind = 'user' AND principal = ?")
      .get(inst.id, admin.id) as { c: number };
    expect(row.c).toBe(1);
  });
});
