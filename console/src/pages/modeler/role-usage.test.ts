import { describe, expect, test } from "bun:test";
import { candidateGroupsOf, usesOfRole } from "./role-usage";

const diagram = (groups: string) => `<bpmn:definitions><bpmn:process id="p">
  <bpmn:userTask id="a" name="A" camunda:candidateGroups="${groups}" />
  <userTask id="b" flowable:candidateGroups="clerks"></userTask>
  <bpmn:userTask id="c" camunda:assignee="x" />
</bpmn:process></bpmn:definitions>`;

describe("process role usage read from diagrams", () => {
  test("candidate groups of each element, any of the three prefixes, expressions skipped", () => {
    expect([...candidateGroupsOf(diagram("approvers, managers,${dyn}"))]).toEqual([
      ["a", ["approvers", "managers"]],
      ["b", ["clerks"]],
    ]);
  });
  test("a process role is used only by its process; a tenant-wide role by any process naming it", () => {
    const diagrams = new Map([
      ["leave", diagram("approvers")],
      ["buy", diagram("managers")],
    ]);
    expect(usesOfRole("approvers", "leave", diagrams)).toEqual([{ processKey: "leave", elementIds: ["a"] }]);
    expect(usesOfRole("approvers", "buy", diagrams)).toEqual([]);
    expect(usesOfRole("clerks", null, diagrams)).toEqual([
      { processKey: "leave", elementIds: ["b"] },
      { processKey: "buy", elementIds: ["b"] },
    ]);
    expect(usesOfRole("nobody", null, diagrams)).toEqual([]);
  });
});
