import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, planOf, preparedWhile, T } from "../../../test/fixtures/bpmn/harness";

// Instances by a variable's value (GET /a/process-instances?varName=&varValue=) come from the variable's index
// entries: probed per instance, the instance table was scanned whole (no index holds every instance by tenant).
const ONE = bpmn(
  "one",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="a"/><userTask id="a" flowable:assignee="ann"/>
   <sequenceFlow id="f1" sourceRef="a" targetRef="e"/><endEvent id="e"/>`,
);

describe("instances by a variable's value", () => {
  test("are read through the variable's index, with the same rows for a Manager and a user", async () => {
    const { rt, db } = makeRuntime();
    for (const tenant of [T, "tenant-b"]) await rt.deploy(tenant, ONE, { fileName: "one.bpmn", createdBy: null });
    const a1 = await rt.startInstance(T, { definitionKey: "one", variables: { order: "A" } });
    const a2 = await rt.startInstance(T, { definitionKey: "one", variables: { order: "A", other: "A" } });
    await rt.startInstance(T, { definitionKey: "one", variables: { order: "B" } });
    await rt.startInstance("tenant-b", { definitionKey: "one", variables: { order: "A" } });
    await rt.completeTask(T, a2.activeTasks[0]!.id, {}, { userId: "ann", channel: "REST" });

    const ids = (r: { content: { id: string }[] }) => r.content.map((i) => i.id).sort();
    let found: ReturnType<typeof rt.searchInstancesByVariable> | undefined;
    const sqls = preparedWhile(() => {
      found = rt.searchInstancesByVariable(T, ALL, "order", "A");
    });
    expect(ids(found!)).toEqual([a1.id, a2.id].sort());
    expect(found!.totalElements).toBe(2);
    expect(ids(rt.searchInstancesByVariable(T, { all: false, userId: "ann", groups: [] }, "order", "A"))).toEqual(
      [a1.id, a2.id].sort(),
    );
    expect(rt.searchInstancesByVariable(T, { all: false, userId: "bob", groups: [] }, "order", "A").totalElements).toBe(
      0,
    );
    expect(rt.searchInstancesByVariable(T, ALL, "order", "C").totalElements).toBe(0);
    expect(rt.searchInstancesByVariable("tenant-b", ALL, "order", "A").totalElements).toBe(1);

    const read = sqls.filter((q) => q.startsWith("SELECT i.* FROM process_instances i"));
    expect(read).toHaveLength(1);
    const plan = planOf(db, read[0]!);
    expect(plan.filter((d) => d.startsWith("SCAN"))).toEqual([]);
    expect(plan).toContain(
      "SEARCH x USING COVERING INDEX variables_search_idx (tenant_id=? AND name=? AND text_value=?)",
    );
  });
});
