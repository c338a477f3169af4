import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, planOf, preparedWhile, T } from "../../../test/fixtures/bpmn/harness";

// A definition's monitor (GET /a/definitions/{key}/monitor and its drill-down) reads the resting tokens, open tasks
// and jobs of the chosen version's running instances, starting from those instances: started from the tenant's
// running instances, open tasks or jobs, each call walked the whole tenant.
const model = (name: string) =>
  bpmn(
    "m",
    `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="p"/><parallelGateway id="p"/>
     <sequenceFlow id="f1" sourceRef="p" targetRef="a"/><userTask id="a" name="${name}" flowable:assignee="ann"/>
     <sequenceFlow id="f2" sourceRef="p" targetRef="w"/>
     <intermediateCatchEvent id="w"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></intermediateCatchEvent>`,
  );
const OTHER = bpmn("n", `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="a"/><userTask id="a"/>`);

describe("a definition's monitor", () => {
  test("reads the version's running instances, with the same counts and items", async () => {
    const { rt, db } = makeRuntime();
    await rt.deploy(T, model("A1"), { fileName: "m.bpmn", createdBy: null });
    const first = await rt.startInstance(T, { definitionKey: "m", businessKey: "M-1" });
    const second = await rt.startInstance(T, { definitionKey: "m", businessKey: "M-2" });
    await rt.deploy(T, model("A2"), { fileName: "m.bpmn", createdBy: null });
    const newer = await rt.startInstance(T, { definitionKey: "m" });
    await rt.deploy(T, OTHER, { fileName: "n.bpmn", createdBy: null });
    await rt.startInstance(T, { definitionKey: "n" });

    let summary: ReturnType<typeof rt.monitor> | undefined;
    const sqls = preparedWhile(() => {
      summary = rt.monitor(T, "m", 1);
    });
    expect(summary!.activities.map((a) => [a.activityId, a.count, a.byReason])).toEqual([
      ["a", 2, { USER_TASK: 2 }],
      ["w", 2, { TIMER: 2 }],
    ]);
    const taskOf = (id: string) => rt.listTasks(T, ALL, { instanceId: id })[0]!.id;
    expect(rt.monitorItems(T, "m", "a", 1).map((i) => [i.instanceId, i.businessKey, i.reason, i.taskId])).toEqual([
      [first.id, "M-1", "USER_TASK", taskOf(first.id)],
      [second.id, "M-2", "USER_TASK", taskOf(second.id)],
    ]);
    expect(rt.monitorItems(T, "m", "w", 2).map((i) => [i.instanceId, i.reason])).toEqual([[newer.id, "TIMER"]]);
    expect(() => rt.monitor("tenant-b", "m", 1)).toThrow("not found");

    const reads = sqls.filter((q) => /FROM (executions e JOIN )?process_instances i/.test(q));
    expect(reads).toHaveLength(3);
    for (const sql of reads) {
      const plan = planOf(db, sql);
      expect(plan[0]).toBe(
        "SEARCH i USING INDEX process_instances_definition_idx (tenant_id=? AND definition_key=? AND version=?)",
      );
      expect(plan.filter((d) => d.startsWith("SCAN") || d.includes("(tenant_id=?)"))).toEqual([]);
    }
  });
});
