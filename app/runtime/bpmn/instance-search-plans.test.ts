import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, planOf, preparedWhile, T } from "../../../test/fixtures/bpmn/harness";
import type { InstanceFilter } from "./instance-filter";

const ONE = bpmn(
  "one",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="a"/><userTask id="a" flowable:assignee="ann"/>
   <sequenceFlow id="f1" sourceRef="a" targetRef="e"/><endEvent id="e"/>`,
);

describe("the cockpit's instance search", () => {
  test("filters by business key prefix, variable, state and start window, reading indexes only", async () => {
    const { rt, db } = makeRuntime();
    for (const tenant of [T, "tenant-b"]) await rt.deploy(tenant, ONE, { fileName: "one.bpmn", createdBy: null });
    const a = await rt.startInstance(T, { definitionKey: "one", businessKey: "INV-100", variables: { c: "x" } });
    const b = await rt.startInstance(T, { definitionKey: "one", businessKey: "INV-101", variables: { c: "y" } });
    const c = await rt.startInstance(T, { definitionKey: "one", businessKey: "PO-7", variables: { c: "x" } });
    await rt.startInstance("tenant-b", { definitionKey: "one", businessKey: "INV-100" });
    await rt.completeTask(T, b.activeTasks[0]!.id, {}, { userId: "ann", channel: "REST" });

    const keys = (f: InstanceFilter) => rt.searchInstances(T, ALL, f).content.map((i) => i.businessKey);
    expect(keys({ businessKey: "INV" })).toEqual(["INV-100"]);
    expect(keys({ businessKey: "INV", state: "all" }).sort()).toEqual(["INV-100", "INV-101"]);
    expect(keys({ state: "ended" })).toEqual(["INV-101"]);
    expect(keys({ varName: "c", varValue: "x" }).sort()).toEqual(["INV-100", "PO-7"]);
    expect(keys({ definitionKey: "one", version: 2 })).toEqual([]);
    expect(keys({ startedAfter: Date.parse(c.startTime) + 1 })).toEqual([]);
    expect(rt.searchInstances(T, { all: false, userId: "bob", groups: [] }, { businessKey: "INV" }).totalElements).toBe(
      0,
    );
    expect(rt.searchInstances("tenant-b", ALL, { businessKey: "INV", state: "all" }).totalElements).toBe(1);

    const sqls = preparedWhile(() => {
      rt.searchInstances(T, ALL, { businessKey: "INV", state: "all" });
    });
    const read = sqls.filter((q) => q.startsWith("SELECT i.* FROM process_instances i"));
    expect(read).toHaveLength(1);
    const plan = planOf(db, read[0]!);
    expect(plan.filter((d) => d.startsWith("SCAN"))).toEqual([]);
    expect(plan.join("\n")).toContain(
      "process_instances_business_key_idx (tenant_id=? AND business_key>? AND business_key<?)",
    );
    // A definition's running instances stream newest first from their index; a variable's instances drive the read.
    const planOfSearch = (f: InstanceFilter) => {
      const seen = preparedWhile(() => {
        rt.searchInstances(T, ALL, f);
      });
      return planOf(db, seen.find((q) => q.startsWith("SELECT i.* FROM"))!);
    };
    const byKey = planOfSearch({ definitionKey: "one" });
    expect(byKey).toContain(
      "SEARCH i USING INDEX process_instances_definition_started_idx (tenant_id=? AND definition_key=?)",
    );
    expect(byKey.filter((d) => d.includes("TEMP B-TREE") || d.startsWith("SCAN"))).toEqual([]);
    const byVar = planOfSearch({ varName: "c", varValue: "x" });
    expect(byVar.slice(0, 4)).toEqual([
      "CO-ROUTINE d",
      "SEARCH x USING COVERING INDEX variables_search_idx (tenant_id=? AND name=? AND text_value=?)",
      "SCAN d",
      "SEARCH i USING PRIMARY KEY (id=?)",
    ]);
    expect(a.id).toBeDefined();
  });
});
