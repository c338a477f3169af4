import { describe, expect, test } from "bun:test";
import { bpmn, makeRuntime, planOf, preparedWhile, T } from "../../../test/fixtures/bpmn/harness";

// An instance's detail (GET /a/process-instances/{id}) lists the activities where its tokens rest, leaving out the
// token that holds a multi-instance body. That body is looked up among the instance's own executions: looked up by
// parent alone it was a scan of every execution of every tenant for each resting token.
const MI = bpmn(
  "mi",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="p"/><parallelGateway id="p"/>
   <sequenceFlow id="f1" sourceRef="p" targetRef="vote"/>
   <userTask id="vote" flowable:assignee="\${voter}">
     <multiInstanceLoopCharacteristics isSequential="false" flowable:collection="voters" flowable:elementVariable="voter"/>
   </userTask>
   <sequenceFlow id="f2" sourceRef="p" targetRef="other"/><userTask id="other"/>`,
);

describe("an instance's resting activities", () => {
  test("leave out the multi-instance body and look it up within the instance", async () => {
    let made: ReturnType<typeof makeRuntime> | undefined;
    const sqls = preparedWhile(() => {
      made = makeRuntime();
    });
    const { rt, db } = made!;
    await rt.deploy(T, MI, { fileName: "mi.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "mi", variables: { voters: ["ann", "bob", "cy"] } });
    await rt.startInstance(T, { definitionKey: "mi", variables: { voters: ["dee"] } });
    expect(rt.getInstance(T, i.id).activeActivityIds).toEqual(["other", "vote", "vote", "vote"]);
    expect(() => rt.getInstance("tenant-b", i.id)).toThrow();

    const read = sqls.filter((q) => q.startsWith("SELECT e.activity_id AS a FROM executions e"));
    expect(read).toHaveLength(1);
    const plan = planOf(db, read[0]!);
    expect(plan.filter((d) => d.startsWith("SCAN"))).toEqual([]);
    expect(plan).toContain("SEARCH b USING PRIMARY KEY (instance_id=?)");
  });
});
