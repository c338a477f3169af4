import { expect, test } from "bun:test";
import { BpmnError, createDelegateRegistry } from "../../engine/bpmn";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

/** A delegate that answers later, as one calling a network service (an HTTP endpoint, a model) does. */
function remote() {
  const reg = createDelegateRegistry();
  reg.register({
    name: "remote",
    description: "answers after a network round trip; throws the BPMN error named by `fail`",
    parameters: [],
    async execute(ctx) {
      await Bun.sleep(1);
      if (ctx.getVariable("fail")) throw new BpmnError("REFUSED");
      ctx.setVariable("answered", true);
    },
  });
  return reg;
}

const model = bpmn(
  "remoteJob",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="call"/>
  <serviceTask id="call" flowable:async="true" flowable:class="remote"/>
  <boundaryEvent id="refused" attachedToRef="call"><errorEventDefinition errorRef="REFUSED"/></boundaryEvent>
  <sequenceFlow id="f1" sourceRef="call" targetRef="after"/><userTask id="after"/>
  <sequenceFlow id="f2" sourceRef="refused" targetRef="handle"/><userTask id="handle"/>`,
);

// A job runs its step directly (not from the engine's agenda): what follows an asynchronous delegate is queued only
// when its promise settles, and must still be run by the same command.
test.each([
  ["answers", {}, "after"],
  ["throws a BPMN error", { fail: true }, "handle"],
])("an async service task whose delegate %s later moves on in the job's command", async (_, variables, next) => {
  const { rt } = makeRuntime({ delegates: remote() });
  await rt.deploy(T, model, { fileName: "remote.bpmn", createdBy: null });
  const i = await rt.startInstance(T, { definitionKey: "remoteJob", variables });
  expect(rt.listTasks(T, ALL)).toEqual([]);
  expect(await rt.runDueJobs()).toBe(1);
  expect(rt.listTasks(T, ALL).map((t) => t.activityId)).toEqual([next]);
  expect(rt.getInstance(T, i.id).variables.answered).toBe(next === "after" ? true : undefined);
});
