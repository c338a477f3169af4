import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, planOf, preparedWhile, T } from "../../../test/fixtures/bpmn/harness";

const ONE = bpmn(
  "one",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="a"/>
   <userTask id="a" name="\${title}" flowable:candidateGroups="\${group}" flowable:priority="\${prio}"/>
   <sequenceFlow id="f1" sourceRef="a" targetRef="e"/><endEvent id="e"/>`,
);

describe("the tasklist's filtered reads", () => {
  test("a user's filtered page starts from their own candidate and assignee indexes, never the tenant's tasks", async () => {
    const { rt, db } = makeRuntime();
    await rt.deploy(T, ONE, { fileName: "one.bpmn", createdBy: null });
    for (const [title, group, prio] of [
      ["Pay", "clerks", 10],
      ["Ship", "clerks", 90],
      ["Audit", "bosses", 50],
    ] as const)
      await rt.startInstance(T, { definitionKey: "one", variables: { title, group, prio } });
    const clerk = { all: false, userId: "ann", groups: ["clerks"] };
    const names = (v: typeof clerk | typeof ALL, f: Parameters<typeof rt.filterTasks>[2]) =>
      rt.filterTasks(T, v, f, {}).map((t) => t.name);
    expect(names(clerk, { sort: "priority" })).toEqual(["Ship", "Pay"]);
    expect(names(ALL, { sort: "priority" })).toEqual(["Ship", "Audit", "Pay"]);
    expect(names(clerk, { text: "pa" })).toEqual(["Pay"]);
    expect(names(ALL, { candidateGroup: "bosses" })).toEqual(["Audit"]);
    expect(rt.countTasks(T, clerk, { sort: "name" })).toBe(2);
    expect(rt.countTasks("tenant-b", ALL, { sort: "name" })).toBe(0);

    const seen = preparedWhile(() => {
      rt.filterTasks(T, clerk, { sort: "due", processKey: "one" }, {});
    });
    const plan = planOf(db, seen.find((q) => q.startsWith("SELECT t.*"))!);
    expect(plan.filter((d) => /^SCAN (t|tasks|task_candidates)\b/.test(d))).toEqual([]);
    expect(plan.join("\n")).toContain("task_candidates_open_idx");
  });
});
