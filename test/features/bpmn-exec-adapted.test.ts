import { expect, test } from "bun:test";
import { describeCorpus } from "../harness/corpora";
import { execModel } from "../fixtures/bpmn/corpus";
import { makeRuntime, T } from "../fixtures/bpmn/harness";

// Corpus models whose only JavaScript is incidental (a log line, a comparison helper of the source test's
// environment): the same model with that piece in FEEL/JUEL reproduces the behaviour its source test states.

describeCorpus("bpmn-exec", "corpus, adapted: link events (bpmn-elements linking-feature)", () => {
  const model = () =>
    execModel("paed01-bpmn-elements/link-event.bpmn").replace(
      /<bpmn:scriptTask id="(task\d)" scriptFormat="javascript">([\s\S]*?)<bpmn:script>[^<]*<\/bpmn:script>/g,
      '<bpmn:scriptTask id="$1" scriptFormat="feel">$2<bpmn:script>"$1 done"</bpmn:script>',
    );

  test("the throw link jumps to the catch link of the same name and the run completes", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(T, model(), { fileName: "link-event.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "theProcess" });
    expect(i.ended).toBe(true);
    const order = rt.historyActivities(T, i.id).map((a) => a.activityId);
    expect(order).toEqual(["start", "task1", "throw", "catch", "task2", "end"]);
  });
});

describeCorpus("bpmn-exec", "corpus, adapted: escalation (bpmn-elements escalation-feature)", () => {
  const model = () =>
    execModel("paed01-bpmn-elements/escalation.bpmn").replace(
      "${environment.services.isAbove(10, environment.output.amount)}",
      "${amount > 10}",
    );

  async function orderAmount(amount: number) {
    const { rt } = makeRuntime();
    await rt.deploy(T, model(), { fileName: "escalation.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "Process_0" });
    expect(i.activeTasks.map((t) => t.activityId)).toEqual(["order"]);
    await rt.completeTask(T, i.activeTasks[0].id, { amount }, { userId: "buyer", channel: "REST" });
    const acts = rt.historyActivities(T, i.id);
    return {
      ended: rt.getInstance(T, i.id).ended,
      taken: (id: string) => acts.filter((a) => a.activityId === id && a.endTime).length,
    };
  }

  test("an amount above the threshold escalates: the non-interrupting boundary ends with the signal, the order still completes", async () => {
    const r = await orderAmount(11);
    expect(r.ended).toBe(true);
    expect(r.taken("escalate")).toBe(1);
    expect(r.taken("escalated")).toBe(1);
    expect(r.taken("endWithSignal")).toBe(1);
    expect(r.taken("placeOrder")).toBe(0);
    expect(r.taken("orderProcess")).toBe(1);
    expect(r.taken("end")).toBe(1);
  });

  test("an amount within the threshold places the order without escalating", async () => {
    const r = await orderAmount(5);
    expect(r.ended).toBe(true);
    expect(r.taken("placeOrder")).toBe(1);
    expect(r.taken("escalated")).toBe(0);
    expect(r.taken("endWithSignal")).toBe(0);
    expect(r.taken("end")).toBe(1);
  });
});
