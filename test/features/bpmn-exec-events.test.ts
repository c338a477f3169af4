import { expect, test } from "bun:test";
import { describeCorpus } from "../harness/corpora";
import { ALL, T } from "../fixtures/bpmn/harness";
import { withModels } from "../fixtures/bpmn/corpus";

const H = 3_600_000,
  D = 24 * H;

// Expected behaviour from Flowable's timer, message, signal, conditional, error, escalation and terminate event tests.
describeCorpus("bpmn-exec", "corpus: timers", () => {
  test("BoundaryTimerEventTest.testMultipleTimersOnUserTask: the earliest of three interrupting timers wins and removes the others", async () => {
    const h = await withModels("flowable/event/timer/BoundaryTimerEventTest.testMultipleTimersOnUserTask.bpmn20.xml");
    const i = await h.rt.startInstance(T, { definitionKey: "multipleTimersOnUserTask" });
    expect(h.rt.jobsOfInstance(T, i.id)).toHaveLength(3);
    h.clock.advance(H + 1);
    await h.rt.runDueJobs();
    expect(h.names(i.id)).toEqual(["Third Task"]);
    expect(h.rt.jobsOfInstance(T, i.id)).toHaveLength(0);
    await h.complete(h.byName("Third Task").id);
    expect(h.ended(i.id)).toBe(true);
  });

  test("BoundaryTimerNonInterruptingEventTest.testReceiveTaskWithBoundaryTimer: a cycle from a variable fires its repetitions while the receive task waits", async () => {
    const h = await withModels(
      "flowable/event/timer/BoundaryTimerNonInterruptingEventTest.testReceiveTaskWithBoundaryTimer.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, {
      definitionKey: "nonInterruptingCycle",
      variables: { timeCycle: "R2/PT1H" },
    });
    for (let k = 0; k < 3; k++) {
      h.clock.advance(H);
      await h.rt.runDueJobs();
    }
    expect(h.tasks(i.id).map((t) => t.activityId)).toEqual(["timerFiredTask", "timerFiredTask"]);
    await h.rt.triggerInstance(T, i.id, "task");
    for (const t of h.tasks(i.id)) await h.complete(t.id);
    expect(h.ended(i.id)).toBe(true);
  });

  test("TimerEventSubprocessTest.testNonInterruptingSubProcess: a daily R3 cycle starts the event subprocess three times beside the main task", async () => {
    const h = await withModels(
      "flowable/event/timer/TimerEventSubprocessTest.testNonInterruptingSubProcess.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, { definitionKey: "process" });
    for (let k = 0; k < 4; k++) {
      h.clock.advance(D);
      await h.rt.runDueJobs();
    }
    expect(
      h
        .tasks(i.id)
        .map((t) => t.activityId)
        .sort(),
    ).toEqual(["eventSubProcessTask", "eventSubProcessTask", "eventSubProcessTask", "task"]);
    for (const t of h.tasks(i.id)) await h.complete(t.id);
    expect(h.ended(i.id)).toBe(true);
  });

  test("CallActivity.testTimerOnCallActivity: the boundary timer interrupts the call activity and cancels the called instance", async () => {
    const h = await withModels(
      "flowable/callactivity/simpleSubProcess.bpmn20.xml",
      "flowable/callactivity/CallActivity.testTimerOnCallActivity.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, { definitionKey: "timerOnCallActivity" });
    const child = h.byName("Task in subprocess").instanceId;
    h.clock.advance(5 * 60_000);
    await h.rt.runDueJobs();
    expect(h.names(i.id)).toEqual(["Escalated Task"]);
    expect(h.rt.getInstance(T, child).state).toBe("CANCELLED");
  });
});

describeCorpus("bpmn-exec", "corpus: messages and signals", () => {
  test("MessageBoundaryEventTest.testSingleBoundaryMessageEvent: the message interrupts the task; completing the task first removes the subscription", async () => {
    const h = await withModels(
      "flowable/event/message/MessageBoundaryEventTest.testSingleBoundaryMessageEvent.bpmn20.xml",
    );
    const a = await h.rt.startInstance(T, { definitionKey: "process", businessKey: "a" });
    await h.rt.correlateMessage(T, "messageName", { businessKey: "a" });
    expect(h.tasks(a.id).map((t) => t.activityId)).toEqual(["taskAfterMessage"]);
    const b = await h.rt.startInstance(T, { definitionKey: "process", businessKey: "b" });
    await h.complete(h.tasks(b.id)[0].id);
    expect(h.tasks(b.id).map((t) => t.activityId)).toEqual(["taskAfterTask"]);
    await expect(h.rt.correlateMessage(T, "messageName", { businessKey: "b" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  test("MessageNonInterruptingBoundaryEventTest.testSingleNonInterruptingBoundaryMessageEvent: each message adds a branch and the task stays", async () => {
    const h = await withModels(
      "flowable/event/message/MessageNonInterruptingBoundaryEventTest.testSingleNonInterruptingBoundaryMessageEvent.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, { definitionKey: "process" });
    await h.rt.correlateMessage(T, "messageName", {});
    await h.rt.correlateMessage(T, "messageName", {});
    expect(
      h
        .tasks(i.id)
        .map((t) => t.activityId)
        .sort(),
    ).toEqual(["task", "taskAfterMessage", "taskAfterMessage"]);
    await h.complete(h.byName("task", i.id).id);
    await expect(h.rt.correlateMessage(T, "messageName", {})).rejects.toThrow(/No process instance/);
    for (const t of h.tasks(i.id)) await h.complete(t.id);
    expect(h.ended(i.id)).toBe(true);
  });

  test("MessageEventSubprocessTest.testNonInterruptingSubProcess: the message starts the event subprocess beside the main task", async () => {
    const h = await withModels(
      "flowable/event/message/MessageEventSubprocessTest.testNonInterruptingSubProcess.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, { definitionKey: "process" });
    await h.rt.correlateMessage(T, "eventMessage", {});
    expect(
      h
        .tasks(i.id)
        .map((t) => t.activityId)
        .sort(),
    ).toEqual(["eventSubProcessTask", "task"]);
    await h.complete(h.byName("eventSubProcessTask", i.id).id);
    await h.complete(h.byName("task", i.id).id);
    expect(h.ended(i.id)).toBe(true);
  });

  test("MessageStartEventTest (otherProcessWithNewInvoiceMessage): the message named through a QName reference starts the process", async () => {
    const h = await withModels("flowable/event/message/otherProcessWithNewInvoiceMessage.bpmn20.xml");
    const [r] = await h.rt.correlateMessage(T, "newInvoiceMessage", { variables: { invoice: 7 } });
    expect(r.started).toBe(true);
    expect(h.names(r.instanceId)).toEqual(["Task"]);
  });

  test("SignalEventTest.catchAlertSignalBoundaryWithReceiveTask: the signal interrupts the task and the receive task then waits for its trigger", async () => {
    const h = await withModels(
      "flowable/event/signal/SignalEventTests.catchAlertSignalBoundaryWithReceiveTask.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, { definitionKey: "catchSignal" });
    expect(h.tasks(i.id)[0].assignee).toBe("kermit");
    await h.rt.signal(T, "alert");
    expect(h.tasks(i.id)).toEqual([]);
    expect(h.rt.getInstance(T, i.id).activeActivityIds).toEqual(["receiveTask"]);
    await h.rt.triggerInstance(T, i.id, "receiveTask");
    expect(h.ended(i.id)).toBe(true);
  });

  test("SignalEventTest.testNonInterruptingSignal: the signal adds the second user task and keeps the first", async () => {
    const h = await withModels("flowable/event/signal/SignalEventTest.testNonInterruptingSignal.bpmn20.xml");
    const i = await h.rt.startInstance(T, { definitionKey: "nonInterruptingSignalEvent" });
    await h.rt.signal(T, "alert");
    expect(h.names(i.id)).toEqual(["My Second User Task", "My User Task"]);
    await h.complete(h.byName("My User Task").id);
    await h.complete(h.byName("My Second User Task").id);
    expect(h.ended(i.id)).toBe(true);
  });

  test("SignalEventTest.testSignalExpression: a signal thrown with its name from a variable reaches the waiting catcher", async () => {
    const h = await withModels(
      "flowable/event/signal/SignalEventTests.catchAlertSignalBoundaryWithReceiveTask.bpmn20.xml",
      "flowable/event/signal/SignalEventTests.throwAlertSignalExpression.bpmn20.xml",
    );
    const c = await h.rt.startInstance(T, { definitionKey: "catchSignal" });
    const t = await h.rt.startInstance(T, { definitionKey: "throwSignal", variables: { mySignalName: "alert" } });
    expect(h.ended(t.id)).toBe(true);
    expect(h.rt.getInstance(T, c.id).activeActivityIds).toEqual(["receiveTask"]);
  });

  test("SignalEventTest.testSignalSubscriptionsRecreatedOnDeploymentDelete: a signal start event starts one instance per signal", async () => {
    const h = await withModels(
      "flowable/event/signal/SignalEventTest.testSignalSubscriptionsRecreatedOnDeploymentDelete.bpmn20.xml",
    );
    await h.rt.signal(T, "The Signal");
    expect(h.tasks().map((t) => t.name)).toEqual(["Task in process A"]);
    await h.rt.suspendDefinition(T, "signalProcess");
    await h.rt.signal(T, "The Signal");
    expect(h.tasks()).toHaveLength(1);
  });

  test("TerminateEndEventTest.testTerminateInEventSubProcess: terminateAll in a signalled event subprocess ends the whole instance", async () => {
    const h = await withModels("flowable/event/end/TerminateEndEventTest.testTerminateInEventSubProcess.bpmn20.xml");
    const i = await h.rt.startInstance(T, { definitionKey: "terminate" });
    const task = h.tasks(i.id)[0];
    await h.rt.signal(T, "signal");
    expect(h.rt.getInstance(T, i.id)).toMatchObject({ ended: true, endReason: "terminated" });
    expect(h.rt.getTask(T, task.id).state).toBe("CANCELLED");
  });
});

describeCorpus("bpmn-exec", "corpus: conditions, errors and escalations", () => {
  test("ConditionalIntermediateCatchEventTest: the catch event waits until myVar becomes 'test'", async () => {
    const h = await withModels(
      "flowable/event/conditional/ConditionalIntermediateCatchEventTest.testConditionalIntermediateCatchEvent.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, { definitionKey: "conditionalCatchEvent" });
    await h.complete(h.tasks(i.id)[0].id);
    expect(h.rt.getInstance(T, i.id).activeActivityIds).toEqual(["catchConditional"]);
    await h.rt.setInstanceVariables(T, i.id, { myVar: "other" });
    expect(h.tasks(i.id)).toEqual([]);
    await h.rt.setInstanceVariables(T, i.id, { myVar: "test" });
    expect(h.tasks(i.id).map((t) => t.activityId)).toEqual(["taskAfterConditionalCatch"]);
  });

  test("BoundaryConditionalEventTest.testCatchNonInterruptingConditionalOnEmbeddedSubprocess: the condition adds a branch and the subprocess goes on", async () => {
    const h = await withModels(
      "flowable/event/conditional/BoundaryConditionalEventTest.testCatchNonInterruptingConditionalOnEmbeddedSubprocess.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, { definitionKey: "boundaryConditionalOnEmbeddedSubprocess" });
    await h.rt.setInstanceVariables(T, i.id, { myVar: "test" });
    expect(
      h
        .tasks(i.id)
        .map((t) => t.activityId)
        .sort(),
    ).toEqual(["subprocessTask", "taskAfterConditionalCatch"]);
  });

  test("ConditionalEventSubprocessTest.testNonInterruptingSubProcess: the condition starts the event subprocess beside the task", async () => {
    const h = await withModels(
      "flowable/event/conditional/ConditionalEventSubprocessTest.testNonInterruptingSubProcess.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, { definitionKey: "process" });
    await h.rt.setInstanceVariables(T, i.id, { myVar: "test" });
    expect(
      h
        .tasks(i.id)
        .map((t) => t.activityId)
        .sort(),
    ).toEqual(["eventSubProcessTask", "task"]);
  });

  test("ErrorEventSubProcessTest.testEventSubprocessTakesPrecedence: the error event subprocess inside the subprocess catches before the boundary", async () => {
    const h = await withModels(
      "flowable/event/error/ErrorEventSubProcessTest.testEventSubprocessTakesPrecedence.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, { definitionKey: "CatchErrorInEmbeddedSubProcess" });
    expect(h.names(i.id)).toEqual(["Escalated Task"]);
    await h.complete(h.tasks(i.id)[0].id);
    expect(h.ended(i.id)).toBe(true);
    expect(h.rt.historyActivities(T, i.id).some((a) => a.activityId === "catchErrorBoundary")).toBe(false);
  });

  test("EscalationEventSubProcessTest.testEventSubprocessTakesPrecedence: the escalation event subprocess catches before the boundary", async () => {
    const h = await withModels(
      "flowable/event/escalation/EscalationEventSubProcessTest.testEventSubprocessTakesPrecedence.bpmn20.xml",
    );
    const i = await h.rt.startInstance(T, { definitionKey: "catchEscalationInEmbeddedSubProcess" });
    expect(h.names(i.id)).toEqual(["Escalated Task"]);
  });

  test("BoundaryEscalationEventTest (call activity): an escalation from the called process reaches the parent's non-interrupting boundary", async () => {
    const h = await withModels(
      "flowable/event/escalation/BoundaryEscalationEventTest.testCatchEscalationOnCallActivitySuspendedParent.child.bpmn20.xml",
      "flowable/event/escalation/BoundaryEscalationEventTest.testCatchEscalationOnCallActivitySuspendedParent.parent.bpmn20.xml",
    );
    const p = await h.rt.startInstance(T, { definitionKey: "escalationParent" });
    for (let k = 0; k < 3; k++) await h.rt.runDueJobs();
    const all = h.rt.listTasks(T, ALL);
    expect(all).toHaveLength(2);
    expect(all.find((t) => t.instanceId === p.id)?.activityId).toBe("userTaskId");
    expect(all.find((t) => t.instanceId !== p.id)?.definitionKey).toBe("escalationChild");
  });
});
