import { describe, expect, test } from "bun:test";
import { admin, approver, manager, newTask, s, useTaskScenario } from "./tasks.setup";

useTaskScenario();

// Tasks opened in the same millisecond (the manual clock stands still here, as a multi-instance step does in one
// command) are listed newest first, then by id descending: the order the open-task indexes are read in, the same in
// every list of open tasks, so that a page never needs sorting.
describe("order of open tasks created at the same time", () => {
  test("the tenant list, the inbox and mine=true agree: created, then id, descending", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await newTask()).taskId);
    const created = new Set<string>();
    const listed = async (token: string, query: string) => {
      const res = await s.req("GET", `/api/a/tasks${query}`, { token });
      expect(res.status).toBe(200);
      const tasks = (await res.json()) as { id: string; created: string }[];
      for (const t of tasks) if (ids.includes(t.id)) created.add(t.created);
      return tasks.map((t) => t.id).filter((id) => ids.includes(id));
    };
    const expected = [...ids].sort().reverse();
    expect(await listed(manager.token, "?size=200")).toEqual(expected);
    expect(await listed(approver.token, "?size=200")).toEqual(expected); // offered to their process role
    for (const id of ids)
      expect((await s.req("POST", `/api/a/tasks/${id}/claim`, { token: approver.token })).status).toBe(200);
    expect(await listed(approver.token, "?mine=true&size=200")).toEqual(expected);
    expect(await listed(approver.token, "?size=200")).toEqual(expected); // now assigned to them
    expect(await listed(admin.token, "?size=200")).toEqual(expected);
    expect(created.size).toBe(1); // the case this test is about: one creation time for all four
    // Paging walks the same order.
    const pages = [
      ...(await listed(approver.token, "?mine=true&size=2&page=0")),
      ...(await listed(approver.token, "?mine=true&size=2&page=1")),
    ];
    expect(pages).toEqual(expected.slice(0, 4));
  });
});
