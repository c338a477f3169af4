import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, planOf, preparedWhile, T } from "../../../test/fixtures/bpmn/harness";

// One instance's open tasks (GET /a/tasks?instanceId=, the console's instance page) are read through the instance
// index, not by walking the tenant's open tasks in creation order: the cost follows the instance, not the tenant.
const TWO = bpmn(
  "two",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="p"/><parallelGateway id="p"/>
   <sequenceFlow id="f1" sourceRef="p" targetRef="a"/><userTask id="a" flowable:candidateGroups="g"/>
   <sequenceFlow id="f2" sourceRef="p" targetRef="b"/><userTask id="b" flowable:assignee="ann"/>`,
);

describe("one instance's open tasks", () => {
  test("are read through the instance index for a Manager, a user and a user's own, with the same rows as before", async () => {
    const { rt, db } = makeRuntime();
    await rt.deploy(T, TWO, { fileName: "two.bpmn", createdBy: null });
    const first = await rt.startInstance(T, { definitionKey: "two" });
    const other = await rt.startInstance(T, { definitionKey: "two" });
    const cases = [
      { v: ALL, opts: {}, expected: ["a", "b"] },
      { v: { all: false, userId: "bob", groups: ["g"] }, opts: {}, expected: ["a"] },
      { v: { all: false, userId: "ann", groups: [] }, opts: {}, expected: ["b"] },
      { v: { all: false, userId: "ann", groups: ["g"] }, opts: { mine: true }, expected: ["b"] },
    ];
    for (const { v, opts, expected } of cases) {
      let listed: ReturnType<typeof rt.listTasks> = [];
      const sqls = preparedWhile(() => {
        listed = rt.listTasks(T, v, { instanceId: first.id, ...opts });
      });
      expect(listed.map((t) => t.activityId).sort()).toEqual(expected);
      expect(listed.every((t) => t.instanceId === first.id)).toBe(true);
      const read = sqls.filter((q) => q.startsWith("SELECT t.* FROM tasks t"));
      expect(read).toHaveLength(1);
      expect(planOf(db, read[0])[0]).toContain("tasks_instance_idx (instance_id=?)");
    }
    expect(rt.listTasks(T, ALL, { instanceId: other.id })).toHaveLength(2);
    expect(rt.listTasks("tenant-b", ALL, { instanceId: first.id })).toEqual([]);
  });
});
