import { describe, expect, test } from "bun:test";
import { approver, newTask, s, useTaskScenario } from "./tasks.setup";

useTaskScenario();

// A completion reads its task twice: the service's checks (visibility, state, assignee, required form fields) and the
// engine's command (the task, then its instance). They run in one read transaction (processRuntime.readTogether), so
// they see one state and the WAL's read mark is taken once (docs/decisions.md, "Reads that belong together").
describe("a completion's reads", () => {
  test("the service's checks and the engine read the task inside one read transaction", async () => {
    const { taskId } = await newTask();
    expect((await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: approver.token })).status).toBe(200);
    const db = s.platform.engineSqlite;
    const rt = s.platform.processRuntime;
    // The service reads the task through the runtime; the engine reads it again through EngineStore.together.
    const getTask = rt.getTask;
    const inTransaction: boolean[] = [];
    rt.getTask = (...args: Parameters<typeof getTask>) => {
      inTransaction.push(db.inTransaction);
      return getTask(...args);
    };
    try {
      const res = await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
        token: approver.token,
        json: { variables: { decision: "approve" } },
      });
      expect(res.status).toBe(200);
    } finally {
      rt.getTask = getTask;
    }
    expect(inTransaction).toEqual([true]); // the service's read, inside the snapshot the engine's reads join
    expect(db.inTransaction).toBe(false); // and the snapshot ended with the request's synchronous part
  });
});
