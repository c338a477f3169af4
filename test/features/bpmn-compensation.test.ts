import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

const trip = bpmn(
  "trip",
  `
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
  "",
).replace(
  "</process>",
  `<association id="a1" sourceRef="undoFlight" targetRef="cancelFlight"/><association id="a2" sourceRef="undoHotel" targetRef="cancelHotel"/></process>`,
);

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

// A completed embedded subprocess with two compensable steps, then a compensation throw in the process.
const nested = (subExtra = "", throwRef = "", afterSub = "") =>
  bpmn(
    "nested",
    `
  <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="book"/>
  <subProcess id="book">
    <startEvent id="bs"/><sequenceFlow id="b0" sourceRef="bs" targetRef="flight"/>
    <serviceTask id="flight" flowable:type="set-variables"><extensionElements><flowable:field name="seat" expression="\${'12A'}"/></extensionElements></serviceTask>
    <boundaryEvent id="undoFlight" attachedToRef="flight"><compensateEventDefinition/></boundaryEvent>
    <userTask id="cancelFlight" name="Cancel flight" isForCompensation="true"/>
    <sequenceFlow id="b1" sourceRef="flight" targetRef="hotel"/>
    <serviceTask id="hotel" flowable:type="set-variables"><extensionElements><flowable:field name="room" expression="\${'101'}"/></extensionElements></serviceTask>
    <boundaryEvent id="undoHotel" attachedToRef="hotel"><compensateEventDefinition/></boundaryEvent>
    <userTask id="cancelHotel" name="Cancel hotel" isForCompensation="true"/>
    <sequenceFlow id="b2" sourceRef="hotel" targetRef="be"/><endEvent id="be"/>
    <association id="a1" sourceRef="undoFlight" targetRef="cancelFlight"/><association id="a2" sourceRef="undoHotel" targetRef="cancelHotel"/>
    ${subExtra}
  </subProcess>
  <sequenceFlow id="f1" sourceRef="book" targetRef="pay"/>
  <userTask id="pay" name="Pay"/>
  ${afterSub}
  <sequenceFlow id="f3" sourceRef="pay" targetRef="undo"/>
  <intermediateThrowEvent id="undo"><compensateEventDefinition ${throwRef}/></intermediateThrowEvent>
  <sequenceFlow id="f5" sourceRef="undo" targetRef="failed"/><userTask id="failed" name="Tell customer"/>`,
  );

describe("compensation of completed subprocesses", () => {
  const actor = { userId: "u", channel: "REST" as const };
  async function run(xml: string) {
    const { rt } = makeRuntime();
    await rt.deploy(T, xml, { fileName: "nested.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "nested" });
    const names = () =>
      rt
        .listTasks(T, ALL)
        .map((t) => t.name)
        .sort();
    const done = async (vars: Record<string, unknown> = {}) => {
      const t = rt.listTasks(T, ALL)[0];
      await rt.completeTask(T, t.id, vars, actor);
      return t;
    };
    return { rt, i, names, done };
  }

  test("compensating the process undoes the completed subprocess' activities, most recent first, with its variables", async () => {
    const h = await run(nested());
    await h.done();
    expect(h.names()).toEqual(["Cancel hotel"]);
    const cancelHotel = h.rt.listTasks(T, ALL)[0];
    expect(h.rt.getTaskVariables(T, cancelHotel.id)).toMatchObject({ room: "101", seat: "12A" });
    await h.done();
    expect(h.names()).toEqual(["Cancel flight"]);
    await h.done();
    expect(h.names()).toEqual(["Tell customer"]);
  });

  test("activityRef naming the subprocess compensates its content only; naming an inner activity, that one only", async () => {
    const extra = `<serviceTask id="insure" flowable:expression="\${true}"/><boundaryEvent id="undoInsure" attachedToRef="insure"><compensateEventDefinition/></boundaryEvent>
      <userTask id="cancelInsure" name="Cancel insurance" isForCompensation="true"/><association id="a3" sourceRef="undoInsure" targetRef="cancelInsure"/>`;
    const withInsurance = (ref: string) =>
      nested("", `activityRef="${ref}"`, extra).replace(
        `<sequenceFlow id="f1" sourceRef="book" targetRef="pay"/>`,
        `<sequenceFlow id="f1" sourceRef="book" targetRef="insure"/><sequenceFlow id="f2" sourceRef="insure" targetRef="pay"/>`,
      );
    const a = await run(withInsurance("book"));
    await a.done();
    expect(a.names()).toEqual(["Cancel hotel"]);
    await a.done();
    expect(a.names()).toEqual(["Cancel flight"]);
    await a.done();
    expect(a.names()).toEqual(["Tell customer"]);
    const b = await run(withInsurance("flight"));
    await b.done();
    expect(b.names()).toEqual(["Cancel flight"]);
    await b.done();
    expect(b.names()).toEqual(["Tell customer"]);
  });

  test("a subprocess with a compensation handler of its own is undone by that handler, not by its content's", async () => {
    const xml = nested().replace(
      `<sequenceFlow id="f1"`,
      `<boundaryEvent id="undoBook" attachedToRef="book"><compensateEventDefinition/></boundaryEvent>
      <userTask id="cancelBooking" name="Cancel booking" isForCompensation="true"/><association id="a9" sourceRef="undoBook" targetRef="cancelBooking"/><sequenceFlow id="f1"`,
    );
    const h = await run(xml);
    await h.done();
    expect(h.names()).toEqual(["Cancel booking"]);
    await h.done();
    expect(h.names()).toEqual(["Tell customer"]);
  });

  test("a compensation event subprocess runs when its subprocess is compensated, sees its variables and can undo its content", async () => {
    const esp = `<subProcess id="onUndo" triggeredByEvent="true">
      <startEvent id="cs"><compensateEventDefinition/></startEvent><sequenceFlow id="e0" sourceRef="cs" targetRef="notify"/>
      <userTask id="notify" name="Notify airline"/><sequenceFlow id="e1" sourceRef="notify" targetRef="undoAll"/>
      <intermediateThrowEvent id="undoAll"><compensateEventDefinition/></intermediateThrowEvent>
      <sequenceFlow id="e2" sourceRef="undoAll" targetRef="ce"/><endEvent id="ce"/></subProcess>`;
    const h = await run(nested(esp));
    const i = h.rt.getInstance(T, h.i.id);
    expect(i.activeActivityIds).toEqual(["pay"]);
    await h.done();
    expect(h.names()).toEqual(["Notify airline"]);
    expect(h.rt.getTaskVariables(T, h.rt.listTasks(T, ALL)[0].id)).toMatchObject({ seat: "12A", room: "101" });
    await h.done();
    expect(h.names()).toEqual(["Cancel hotel"]);
    await h.done();
    expect(h.names()).toEqual(["Cancel flight"]);
    await h.done();
    expect(h.names()).toEqual(["Tell customer"]);
    expect(h.rt.historyActivities(T, h.i.id).filter((a) => a.activityId === "onUndo")).toHaveLength(1);
  });

  test("a compensation event subprocess never starts while its subprocess runs or when nothing is compensated", async () => {
    const esp = `<subProcess id="onUndo" triggeredByEvent="true"><startEvent id="cs"><compensateEventDefinition/></startEvent>
      <sequenceFlow id="e0" sourceRef="cs" targetRef="notify"/><userTask id="notify" name="Notify airline"/><sequenceFlow id="e1" sourceRef="notify" targetRef="ce"/><endEvent id="ce"/></subProcess>`;
    const xml = nested(esp).replace(
      `<sequenceFlow id="f3" sourceRef="pay" targetRef="undo"/>`,
      `<sequenceFlow id="f3" sourceRef="pay" targetRef="undo"><conditionExpression>\${!paid}</conditionExpression></sequenceFlow>
      <sequenceFlow id="f4" sourceRef="pay" targetRef="ok"><conditionExpression>\${paid}</conditionExpression></sequenceFlow><endEvent id="ok"/>`,
    );
    const h = await run(xml);
    await h.done({ paid: true });
    expect(h.rt.getInstance(T, h.i.id).ended).toBe(true);
    expect(h.rt.historyActivities(T, h.i.id).map((a) => a.activityId)).not.toContain("onUndo");
  });
});
