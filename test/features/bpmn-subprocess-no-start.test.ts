import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

type RT = ReturnType<typeof makeRuntime>["rt"];
const deploy = (rt: RT, key: string, body: string, extra = "") =>
  rt.deploy(T, bpmn(key, body, extra), { fileName: `${key}.bpmn`, createdBy: null });

describe("6. a subprocess without a start event", () => {
  // BPMN 2.0 (10.5.6): without a start event, every activity and event of the subprocess no flow reaches starts.
  const noStart = `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
    <subProcess id="sub">
      <userTask id="a"/><userTask id="b"/><sequenceFlow id="fb" sourceRef="b" targetRef="c"/><userTask id="c"/>
      <boundaryEvent id="bnd" attachedToRef="a"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></boundaryEvent>
      <sequenceFlow id="fbnd" sourceRef="bnd" targetRef="late"/><userTask id="late"/>
    </subProcess>
    <sequenceFlow id="f1" sourceRef="sub" targetRef="after"/><userTask id="after"/>`;

  test("starts every inner element without incoming flow, and completes when all its paths have ended", async () => {
    const { rt } = makeRuntime();
    await deploy(rt, "nostart", noStart);
    const i = await rt.startInstance(T, { definitionKey: "nostart" });
    // a and b start (boundary events and what they lead to do not); c waits for b.
    expect(i.activeTasks.map((t) => t.activityId).sort()).toEqual(["a", "b"]);
    const open = () => rt.listTasks(T, ALL, { instanceId: i.id });
    const finish = async (activityId: string) =>
      rt.completeTask(T, open().find((t) => t.activityId === activityId)!.id, {}, { userId: "u", channel: "REST" });
    await finish("b");
    expect(
      open()
        .map((t) => t.activityId)
        .sort(),
    ).toEqual(["a", "c"]);
    await finish("a");
    expect(open().map((t) => t.activityId)).toEqual(["c"]);
    await finish("c");
    expect(open().map((t) => t.activityId)).toEqual(["after"]);
  });

  test("one with nothing to start (every inner element is reached by a flow) is refused at deploy", async () => {
    const { rt } = makeRuntime();
    await expect(
      deploy(
        rt,
        "loopOnly",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
        <subProcess id="sub"><userTask id="a"/><userTask id="b"/><sequenceFlow id="ab" sourceRef="a" targetRef="b"/>
        <sequenceFlow id="ba" sourceRef="b" targetRef="a"/></subProcess><sequenceFlow id="f1" sourceRef="sub" targetRef="e"/><endEvent id="e"/>`,
      ),
    ).rejects.toThrow(
      /Subprocess 'sub' has no start event: an embedded subprocess needs a none start event, or an element without incoming flow/,
    );
  });
});
