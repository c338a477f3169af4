import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../../../test/fixtures/bpmn/harness";

const counted = (db: ReturnType<typeof makeRuntime>["db"], tenant: string) =>
  db
    .query(
      "SELECT SUM(state IN ('ACTIVE','SUSPENDED')) AS running, SUM(state IN ('COMPLETED','CANCELLED')) AS ended FROM process_instances WHERE tenant_id = ?",
    )
    .get(tenant) as { running: number | null; ended: number | null };

describe("running and ended totals kept in instance_counts", () => {
  test("match a count of the instances through starts, ends, cancels, called children, suspension and a rolled-back start", async () => {
    const { rt, db } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "wait",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/><sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
      ),
      { fileName: "w.bpmn", createdBy: null },
    );
    await rt.deploy(
      T,
      bpmn("flat", `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="e"/><endEvent id="e"/>`),
      { fileName: "f.bpmn", createdBy: null },
    );
    await rt.deploy(
      T,
      bpmn(
        "parent",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="c"/><callActivity id="c" calledElement="wait"/><sequenceFlow id="f1" sourceRef="c" targetRef="e"/><endEvent id="e"/>`,
      ),
      { fileName: "p.bpmn", createdBy: null },
    );
    await rt.deploy(
      T,
      bpmn(
        "bad",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="x"/><scriptTask id="x" scriptFormat="feel"><script>{ a: 1 }</script></scriptTask><sequenceFlow id="f1" sourceRef="x" targetRef="g"/><exclusiveGateway id="g"/><sequenceFlow id="f2" sourceRef="g" targetRef="e"><conditionExpression>\${a > 5}</conditionExpression></sequenceFlow><endEvent id="e"/>`,
      ),
      { fileName: "b.bpmn", createdBy: null },
    );
    const a = await rt.startInstance(T, { definitionKey: "wait" });
    const b = await rt.startInstance(T, { definitionKey: "wait" });
    await rt.startInstance(T, { definitionKey: "flat" });
    const p = await rt.startInstance(T, { definitionKey: "parent" });
    await expect(rt.startInstance(T, { definitionKey: "bad" })).rejects.toThrow();
    await rt.completeTask(T, a.activeTasks[0].id, {}, { userId: null, channel: "REST" });
    await rt.suspendInstance(T, b.id);
    await rt.activateInstance(T, b.id);
    await rt.cancelInstance(T, p.id);
    const truth = counted(db, T);
    expect(truth).toEqual({ running: 1, ended: 4 });
    expect(rt.listInstances(T, ALL).totalElements).toBe(1);
    expect(rt.historyInstances(T, ALL).totalElements).toBe(4);
    const d = rt.dashboard(T, ALL);
    expect([d.runningInstances, d.finishedInstances]).toEqual([1, 4]);
    // Another tenant's totals stay apart.
    expect(rt.listInstances("tenant-b", ALL).totalElements).toBe(0);
  });
});
