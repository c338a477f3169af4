import { expect, test } from "bun:test";
import { describeCorpus } from "../harness/corpora";
import { T } from "../fixtures/bpmn/harness";
import { withModels } from "../fixtures/bpmn/corpus";

// Expected behaviour from Flowable's ExclusiveGatewayTest, InclusiveGatewayTest, ParallelGatewayTest and bpmn-elements' gateway features.
describeCorpus("bpmn-exec", "corpus: gateways", () => {
  test("ExclusiveGatewayTest.testDivergingExclusiveGateway: input 1, 2, 3 reach Task 1, 2, 3; any other input is refused", async () => {
    const h = await withModels("flowable/gateway/ExclusiveGatewayTest.testDivergingExclusiveGateway.bpmn20.xml");
    for (const n of [1, 2, 3]) {
      const i = await h.rt.startInstance(T, { definitionKey: "exclusiveGwDiverging", variables: { input: n } });
      expect(i.activeTasks.map((t) => t.name)).toEqual([`Task ${n}`]);
    }
    await expect(
      h.rt.startInstance(T, { definitionKey: "exclusiveGwDiverging", variables: { input: 4 } }),
    ).rejects.toThrow(/exclusive gateway 'exclusiveGw'/);
  });

  test("ExclusiveGatewayTest.testDefaultSequenceFlow: conditions win, otherwise the default flow", async () => {
    const h = await withModels("flowable/gateway/ExclusiveGatewayTest.testDefaultSequenceFlow.bpmn20.xml");
    for (const [input, name] of [
      [1, "Input is one"],
      [3, "Input is three"],
      [5, "Default input"],
    ] as const) {
      const i = await h.rt.startInstance(T, { definitionKey: "exclusiveGwDefaultSequenceFlow", variables: { input } });
      expect(i.activeTasks.map((t) => t.name)).toEqual([name]);
    }
  });

  test("InclusiveGatewayTest.testDivergingInclusiveGateway: every true condition opens a branch; none true is refused", async () => {
    const h = await withModels("flowable/gateway/InclusiveGatewayTest.testDivergingInclusiveGateway.bpmn20.xml");
    const started = async (input: number) =>
      (await h.rt.startInstance(T, { definitionKey: "inclusiveGwDiverging", variables: { input } })).activeTasks
        .map((t) => t.name)
        .sort();
    expect(await started(1)).toEqual(["Task 1", "Task 2", "Task 3"]);
    expect(await started(2)).toEqual(["Task 2", "Task 3"]);
    expect(await started(3)).toEqual(["Task 3"]);
    await expect(started(4)).rejects.toThrow(/No outgoing sequence flow of 'inclusiveGw'/);
  });

  test("ParallelGatewayTest.testNestedForkJoin: nested forks join before the outer join lets Task C start", async () => {
    const h = await withModels("flowable/gateway/ParallelGatewayTest.testNestedForkJoin.bpmn20.xml");
    const i = await h.rt.startInstance(T, { definitionKey: "nestedForkJoin" });
    await h.complete(h.byName("Task 0").id);
    expect(h.names(i.id)).toEqual(["Task A", "Task B"]);
    await h.complete(h.byName("Task B").id);
    expect(h.names(i.id)).toEqual(["Task A", "Task B1", "Task B2"]);
    await h.complete(h.byName("Task B1").id);
    await h.complete(h.byName("Task A").id);
    expect(h.names(i.id)).toEqual(["Task B2"]);
    await h.complete(h.byName("Task B2").id);
    expect(h.names(i.id)).toEqual(["Task C"]);
    await h.complete(h.byName("Task C").id);
    expect(h.ended(i.id)).toBe(true);
  });

  test("EventBasedGatewayTest.testCatchAlertAndTimer: the signal wins before the timer, the timer wins when nothing is signalled", async () => {
    const h = await withModels("flowable/gateway/EventBasedGatewayTest.testCatchAlertAndTimer.bpmn20.xml");
    const a = await h.rt.startInstance(T, { definitionKey: "catchSignal" });
    await h.rt.signal(T, "alert");
    expect(h.names(a.id)).toEqual(["afterSignal"]);
    expect(h.rt.jobsOfInstance(T, a.id)).toEqual([]);
    const b = await h.rt.startInstance(T, { definitionKey: "catchSignal" });
    h.clock.advance(10_000);
    await h.rt.runDueJobs();
    expect(h.names(b.id)).toEqual(["afterTimer"]);
    expect((await h.rt.signal(T, "alert")).triggered).toBe(0);
  });

  test("EventBasedGatewayTest.testCatchSignalAndMessageAndTimer: a message, a signal or the immediate timer each choose their branch", async () => {
    const h = await withModels("flowable/gateway/EventBasedGatewayTest.testCatchSignalAndMessageAndTimer.bpmn20.xml");
    const m = await h.rt.startInstance(T, { definitionKey: "catchSignal" });
    await h.rt.correlateMessage(T, "newInvoice", {});
    expect(h.names(m.id)).toEqual(["afterMessage"]);
    const s = await h.rt.startInstance(T, { definitionKey: "catchSignal" });
    await h.rt.signal(T, "alert");
    expect(h.names(s.id)).toEqual(["afterSignal"]);
    const t = await h.rt.startInstance(T, { definitionKey: "catchSignal" });
    await h.rt.runDueJobs();
    expect(h.names(t.id)).toEqual(["afterTimer"]);
    await h.complete(h.byName("afterTimer").id);
    expect(h.ended(t.id)).toBe(true);
  });

  test("bpmn-elements parallel-join-edgecase: with Flowable's join semantics an untaken default flow leaves the join waiting", async () => {
    const h = await withModels("paed01-bpmn-elements/parallel-join-edgecase.bpmn");
    const i = await h.rt.startInstance(T, { definitionKey: "Process_08w6lcm" });
    // bpmn-elements propagates the discarded default flow and completes; Flowable (our reference) counts arrived tokens only.
    expect(h.rt.getInstance(T, i.id)).toMatchObject({ ended: false, activeActivityIds: ["join"] });
    expect(h.rt.historyActivities(T, i.id).map((a) => a.activityId)).toEqual(["start", "decision", "task", "join"]);
  });

  test("bpmn-elements event-based-gateway: the signal branch runs its task and waits at the join, the timer is disarmed", async () => {
    const h = await withModels("paed01-bpmn-elements/event-based-gateway.bpmn");
    const i = await h.rt.startInstance(T, { definitionKey: "Process_0" });
    expect(h.rt.jobsOfInstance(T, i.id)).toHaveLength(1);
    await h.rt.signal(T, "signalEvent");
    expect(h.rt.jobsOfInstance(T, i.id)).toHaveLength(0);
    expect(h.rt.historyActivities(T, i.id).map((a) => a.activityId)).toEqual([
      "start",
      "gateway",
      "signalEvent",
      "Task_1pfzr39",
      "join",
    ]);
  });
});
