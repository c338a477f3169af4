import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

const trip = bpmn("trip", `
  <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="flight"/>
  <serviceTask id="flight" flowable:type="set-variables"><extensionElements><flowable:field name="flightBooked" expression="\${true}"/></extensionElements></serviceTask>
  <boundaryEvent id="undoFlight" attachedToRef="flight"><compensateEventDefinition/></boundaryEvent>
  <userTask id="cancelFlight" name="Cancel flight" isForCompensation="true"/>
  <sequenceFlow id="f1" sourceRef="flight" targetRef="hotel"/>
  <userTask id="hotel" name="Book hotel"/>
  <boundaryEvent id="undoHotel" attachedToRef="hotel"><compensateEventDefinition/></boundaryEvent>
  <userTask id="cancelHotel" name="Cancel hotel" isForCompensation="true"/>
  <sequenceFlow id="f2" sourceRef="hotel" targetRef="pay"/>
  <userTask id="pay" name="Pay"/>
  <sequenceFlow id="f3" sourceRef="pay" targetRef="ok"><conditionExpression>\${paid}</conditionExpression></sequenceFlow>
  <sequenceFlow id="f4" sourceRef="pay" targetRef="undo"><conditionExpression>\${!paid}</conditionExpression></sequenceFlow>
  <endEvent id="ok"/>
  <intermediateThrowEvent id="undo"><compensateEventDefinition/></intermediateThrowEvent>
  <sequenceFlow id="f5" sourceRef="undo" targetRef="failed"/><userTask id="failed" name="Tell customer"/>`,
  "").replace("</process>", `<association id="a1" sourceRef="undoFlight" targetRef="cancelFlight"/><association id="a2" sourceRef="undoHotel" targetRef="cancelHotel"/></process>`);

describe("compensation", () => {
  test("a compensation throw runs the handlers of completed activities, most recent first, then continues", async () => {
    const { rt } = makeRuntime();
    const d = await rt.deploy(T, trip, { fileName: "trip.bpmn", createdBy: null });
    expect(d.warnings.join()).not.toMatch(/cancelFlight|cancelHotel/);
    const i = await rt.startInstance(T, { definitionKey: "trip" });
    const actor = { userId: "u", channel: "REST" as const };
    await rt.completeTask(T, i.activeTasks[0].id, {}, actor);
    await rt.completeTask(T, rt.listTasks(T, ALL)[0].id, { paid: false }, actor);
    expect(rt.listTasks(T, ALL).map((t) => t.name)).toEqual(["Cancel hotel"]);
    await rt.completeTask(T, rt.listTasks(T, ALL)[0].id, {}, actor);
    expect(rt.listTasks(T, ALL).map((t) => t.name)).toEqual(["Cancel flight"]);
    await rt.completeTask(T, rt.listTasks(T, ALL)[0].id, {}, actor);
    expect(rt.listTasks(T, ALL).map((t) => t.name)).toEqual(["Tell customer"]);
  });

  test("without a compensation throw, handlers never run and the instance ends normally", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(T, trip, { fileName: "trip.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "trip" });
    const actor = { userId: "u", channel: "REST" as const };
    await rt.completeTask(T, i.activeTasks[0].id, {}, actor);
    await rt.completeTask(T, rt.listTasks(T, ALL)[0].id, { paid: true }, actor);
    expect(rt.getInstance(T, i.id).ended).toBe(true);
  });
});
