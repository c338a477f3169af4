import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

// A booking transaction: two bookings with compensation handlers, a parallel review, then a decision that completes,
// cancels (cancel end: undo the bookings, leave through the cancel boundary) or fails (error end: error boundary).
const tx = (
  inner = "",
  boundaries = `
  <boundaryEvent id="cancelled" attachedToRef="tx"><cancelEventDefinition/></boundaryEvent>
  <sequenceFlow id="c1" sourceRef="cancelled" targetRef="afterCancel"/><userTask id="afterCancel" name="Tell customer: cancelled"/>
  <boundaryEvent id="failed" attachedToRef="tx"><errorEventDefinition/></boundaryEvent>
  <sequenceFlow id="c2" sourceRef="failed" targetRef="afterError"/><userTask id="afterError" name="Tell customer: failed"/>`,
) =>
  bpmn(
    "booking",
    `
  <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="tx"/>
  <transaction id="tx">
    <startEvent id="ts"/><sequenceFlow id="t0" sourceRef="ts" targetRef="split"/>
    <parallelGateway id="split"/><sequenceFlow id="t1" sourceRef="split" targetRef="flight"/><sequenceFlow id="t2" sourceRef="split" targetRef="review"/>
    <userTask id="review" name="Review"/>
    <serviceTask id="flight" flowable:type="set-variables"><extensionElements><flowable:field name="flight" expression="\${'booked'}"/></extensionElements></serviceTask>
    <boundaryEvent id="undoFlight" attachedToRef="flight"><compensateEventDefinition/></boundaryEvent>
    <userTask id="cancelFlight" name="Cancel flight" isForCompensation="true"/>
    <sequenceFlow id="t3" sourceRef="flight" targetRef="hotel"/>
    <userTask id="hotel" name="Book hotel"/>
    <boundaryEvent id="undoHotel" attachedToRef="hotel"><compensateEventDefinition/></boundaryEvent>
    <userTask id="cancelHotel" name="Cancel hotel" isForCompensation="true"/>
    <sequenceFlow id="t4" sourceRef="hotel" targetRef="decide"/>
    <exclusiveGateway id="decide" default="ok"/>
    <sequenceFlow id="ok" sourceRef="decide" targetRef="done"/>
    <sequenceFlow id="no" sourceRef="decide" targetRef="cancelEnd"><conditionExpression>\${answer == "no"}</conditionExpression></sequenceFlow>
    <sequenceFlow id="err" sourceRef="decide" targetRef="errorEnd"><conditionExpression>\${answer == "abort"}</conditionExpression></sequenceFlow>
    <endEvent id="done"/>
    <endEvent id="cancelEnd"><cancelEventDefinition/></endEvent>
    <endEvent id="errorEnd"><errorEventDefinition/></endEvent>
    <association id="a1" sourceRef="undoFlight" targetRef="cancelFlight"/><association id="a2" sourceRef="undoHotel" targetRef="cancelHotel"/>
    ${inner}
  </transaction>
  ${boundaries}
  <sequenceFlow id="f1" sourceRef="tx" targetRef="confirm"/><userTask id="confirm" name="Confirm"/>`,
  );

const actor = { userId: "kermit", channel: "REST" as const };

async function setup(xml = tx()) {
  const h = makeRuntime();
  await h.rt.deploy(T, xml, { fileName: "tx.bpmn", createdBy: null });
  const i = await h.rt.startInstance(T, { definitionKey: "booking" });
  const tasks = () => h.rt.listTasks(T, ALL, { instanceId: i.id });
  const names = () =>
    tasks()
      .map((t) => t.name)
      .sort();
  const complete = (name: string, v: Record<string, unknown> = {}) =>
    h.rt.completeTask(T, tasks().find((t) => t.name === name)!.id, v, actor);
  return { ...h, i, tasks, names, complete };
}

describe("transaction subprocess", () => {
  test("completes like an embedded subprocess: no handler runs, the instance moves on", async () => {
    const h = await setup();
    expect(h.names()).toEqual(["Book hotel", "Review"]);
    await h.complete("Review");
    await h.complete("Book hotel", { answer: "yes" });
    expect(h.names()).toEqual(["Confirm"]);
  });

  test("a cancel end cancels what still runs, compensates completed activities most recent first, then takes the cancel boundary", async () => {
    const h = await setup();
    const review = h.tasks().find((t) => t.name === "Review")!;
    await h.complete("Book hotel", { answer: "no" });
    expect(h.rt.getTask(T, review.id).state).toBe("CANCELLED");
    expect(h.names()).toEqual(["Cancel hotel"]);
    // The transaction waits for its compensation; the cancel boundary has not fired yet.
    expect(h.rt.getInstance(T, h.i.id).activeActivityIds.sort()).toEqual(["cancelEnd", "cancelHotel", "tx"]);
    await h.complete("Cancel hotel");
    expect(h.names()).toEqual(["Cancel flight"]);
    await h.complete("Cancel flight");
    expect(h.names()).toEqual(["Tell customer: cancelled"]);
    const hist = h.rt.historyActivities(T, h.i.id);
    expect(hist.find((a) => a.activityId === "tx")!.outcome).toBe("cancelled");
    expect(hist.filter((a) => a.activityId === "cancelled")).toHaveLength(1);
    expect(hist.map((a) => a.activityId)).not.toContain("confirm");
  });

  test("a cancel end with nothing to compensate leaves through the cancel boundary at once", async () => {
    const xml = tx()
      .replace(
        `<sequenceFlow id="t3" sourceRef="flight" targetRef="hotel"/>`,
        `<sequenceFlow id="t3" sourceRef="split" targetRef="hotel"/>`,
      )
      .replace(`<sequenceFlow id="t1" sourceRef="split" targetRef="flight"/>`, "")
      .replace(
        /<serviceTask id="flight"[\s\S]*?<\/serviceTask>\s*<boundaryEvent id="undoFlight"[\s\S]*?<\/boundaryEvent>\s*<userTask id="cancelFlight"[^>]*\/>/,
        "",
      )
      .replace(`<association id="a1" sourceRef="undoFlight" targetRef="cancelFlight"/>`, "")
      .replace(/<boundaryEvent id="undoHotel"[\s\S]*?<\/boundaryEvent>/, "")
      .replace(/<association id="a2"[^>]*\/>/, "");
    const h = await setup(xml);
    await h.complete("Book hotel", { answer: "no" });
    expect(h.names()).toEqual(["Tell customer: cancelled"]);
  });

  test("an error end behaves as in a subprocess: the error boundary, no compensation", async () => {
    const h = await setup();
    await h.complete("Book hotel", { answer: "abort" });
    expect(h.names()).toEqual(["Tell customer: failed"]);
    const acts = h.rt.historyActivities(T, h.i.id).map((a) => a.activityId);
    expect(acts).not.toContain("cancelHotel");
    expect(acts).not.toContain("cancelled");
  });

  test("refuses cancel events outside a transaction, and a transaction that can be cancelled without a cancel boundary", async () => {
    const { rt } = makeRuntime();
    const deploy = (xml: string) => rt.deploy(T, xml, { fileName: "x.bpmn", createdBy: null });
    await expect(deploy(tx("", ""))).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/Transaction 'tx' has a cancel end event but no cancel boundary event/),
    });
    await expect(
      deploy(
        bpmn(
          "p",
          `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="c"/><endEvent id="c"><cancelEventDefinition/></endEvent>`,
        ),
      ),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/Cancel event 'c' is not directly inside a transaction/),
    });
    await expect(
      deploy(
        bpmn(
          "p",
          `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="u"/><userTask id="u"/>
      <boundaryEvent id="b" attachedToRef="u"><cancelEventDefinition/></boundaryEvent><sequenceFlow id="g" sourceRef="b" targetRef="e"/><endEvent id="e"/>`,
        ),
      ),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/Cancel event 'b' is attached to 'u', which is not a transaction/),
    });
  });
});
