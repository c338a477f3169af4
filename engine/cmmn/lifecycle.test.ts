import { describe, expect, test } from "bun:test";
import {
  ALL,
  cmmn,
  completeTaskNamed,
  deployFile,
  item,
  makeCases,
  states,
  T,
  actor,
} from "../../test/fixtures/cmmn/harness";

describe("case lifecycle", () => {
  test("a stage with two human tasks and a milestone completes the case when both tasks are done", async () => {
    const h = makeCases();
    await deployFile(
      h.rt,
      cmmn(
        "c",
        `
      <planItem id="piStage" name="Stage" definitionRef="st"/>
      <planItem id="piM" name="Done" definitionRef="m"><entryCriterion id="e1" sentryRef="s1"/></planItem>
      <sentry id="s1"><planItemOnPart id="op1" sourceRef="piStage"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
      <stage id="st" name="Stage">
        <planItem id="piA" name="A" definitionRef="a"/><planItem id="piB" name="B" definitionRef="b"/>
        <humanTask id="a" name="A" flowable:assignee="kermit"/><humanTask id="b" name="B" flowable:candidateGroups="clerks"/>
      </stage>
      <milestone id="m" name="Done"/>`,
      ),
    );
    const c = await h.rt.startCase(T, { definitionKey: "c", startedBy: "u1" });
    expect(c.type).toBe("CMMN");
    expect(c.activeTasks.map((t) => t.name).sort()).toEqual(["A", "B"]);
    expect(states(h.rt, c.id)).toEqual({ Stage: "ACTIVE", Done: "AVAILABLE", A: "ACTIVE", B: "ACTIVE" });
    await completeTaskNamed(h, c.id, "A");
    expect(states(h.rt, c.id)).toMatchObject({ Stage: "ACTIVE", A: "COMPLETED", B: "ACTIVE" });
    await completeTaskNamed(h, c.id, "B");
    expect(states(h.rt, c.id)).toEqual({ Stage: "COMPLETED", Done: "COMPLETED", A: "COMPLETED", B: "COMPLETED" });
    expect(h.rt.getCase(T, c.id).ended).toBe(true);
    expect(h.rt.milestones(T, c.id, ALL).map((m) => m.name)).toEqual(["Done"]);
  });

  test("a manually activated item is offered, can be disabled and enabled again, then started", async () => {
    const h = makeCases();
    await deployFile(
      h.rt,
      cmmn(
        "m",
        `
      <planItem id="piA" name="A" definitionRef="a"/>
      <planItem id="piM" name="Optional" definitionRef="o"><itemControl><manualActivationRule/></itemControl></planItem>
      <humanTask id="a" name="A"/><humanTask id="o" name="Optional"/>`,
      ),
    );
    const c = await h.rt.startCase(T, { definitionKey: "m" });
    const opt = item(h.rt, c.id, "Optional");
    expect(opt.state).toBe("ENABLED");
    expect(opt.actions).toEqual(["START", "DISABLE"]);
    await expect(h.rt.enablePlanItem(T, c.id, opt.id, actor)).rejects.toThrow(/enabled/);
    expect((await h.rt.disablePlanItem(T, c.id, opt.id, actor)).state).toBe("DISABLED");
    await expect(h.rt.startPlanItem(T, c.id, opt.id, actor)).rejects.toThrow(/it is disabled/);
    expect((await h.rt.enablePlanItem(T, c.id, opt.id, actor)).state).toBe("ENABLED");
    expect((await h.rt.startPlanItem(T, c.id, opt.id, actor)).state).toBe("ACTIVE");
    await completeTaskNamed(h, c.id, "Optional");
    await completeTaskNamed(h, c.id, "A");
    expect(h.rt.getCase(T, c.id).ended).toBe(true);
  });

  test("a disabled optional item counts as done: the case completes without it", async () => {
    const h = makeCases();
    await deployFile(
      h.rt,
      cmmn(
        "m",
        `
      <planItem id="piA" name="A" definitionRef="a"/>
      <planItem id="piM" name="Optional" definitionRef="o"><itemControl><manualActivationRule/></itemControl></planItem>
      <humanTask id="a" name="A"/><humanTask id="o" name="Optional"/>`,
      ),
    );
    const c = await h.rt.startCase(T, { definitionKey: "m" });
    await completeTaskNamed(h, c.id, "A");
    expect(h.rt.getCase(T, c.id).ended).toBe(false);
    await h.rt.disablePlanItem(T, c.id, item(h.rt, c.id, "Optional").id, actor);
    expect(h.rt.getCase(T, c.id).ended).toBe(true);
  });

  test("a required item keeps an autoComplete case open; completing it ends the case", async () => {
    const h = makeCases();
    await deployFile(
      h.rt,
      cmmn(
        "req",
        `
      <planItem id="piR" name="Required" definitionRef="r"><itemControl><requiredRule/><manualActivationRule/></itemControl></planItem>
      <planItem id="piO" name="Optional" definitionRef="o"><itemControl><manualActivationRule/></itemControl></planItem>
      <humanTask id="r" name="Required"/><humanTask id="o" name="Optional"/>`,
        `autoComplete="true"`,
      ),
    );
    const c = await h.rt.startCase(T, { definitionKey: "req" });
    expect(states(h.rt, c.id)).toEqual({ Required: "ENABLED", Optional: "ENABLED" });
    await h.rt.startPlanItem(T, c.id, item(h.rt, c.id, "Required").id, actor);
    await completeTaskNamed(h, c.id, "Required");
    expect(states(h.rt, c.id)).toEqual({ Required: "COMPLETED", Optional: "TERMINATED" });
    expect(h.rt.getCase(T, c.id).ended).toBe(true);
  });

  test("a repeatable item with an entry criterion waits for repetition after each activation", async () => {
    const h = makeCases();
    await deployFile(
      h.rt,
      cmmn(
        "rep",
        `
      <planItem id="piL" name="Again" definitionRef="l"/>
      <planItem id="piT" name="Work" definitionRef="t">
        <itemControl><repetitionRule flowable:counterVariable="n"><condition>\${n &lt; 3}</condition></repetitionRule></itemControl>
        <entryCriterion id="e" sentryRef="s"/>
      </planItem>
      <sentry id="s"><planItemOnPart id="op" sourceRef="piL"><standardEvent>occur</standardEvent></planItemOnPart></sentry>
      <userEventListener id="l" name="Again"/><humanTask id="t" name="Work"/>`,
      ),
    );
    const c = await h.rt.startCase(T, { definitionKey: "rep" });
    expect(states(h.rt, c.id)).toEqual({ Again: "AVAILABLE", Work: "AVAILABLE" });
    await h.rt.triggerPlanItem(T, c.id, item(h.rt, c.id, "Again").id, actor);
    expect(states(h.rt, c.id)).toEqual({ Again: "COMPLETED", Work: "ACTIVE", "Work#2": "WAITING_FOR_REPETITION" });
  });

  test("a repeatable item without entry criteria comes back after each completion while its condition holds", async () => {
    const h = makeCases();
    await deployFile(
      h.rt,
      cmmn(
        "rep2",
        `
      <planItem id="piT" name="Work" definitionRef="t">
        <itemControl><repetitionRule flowable:counterVariable="n"><condition>\${n &lt; 3}</condition></repetitionRule></itemControl>
      </planItem>
      <humanTask id="t" name="Work"/>`,
      ),
    );
    const c = await h.rt.startCase(T, { definitionKey: "rep2" });
    for (let i = 0; i < 3; i++) await completeTaskNamed(h, c.id, "Work");
    expect(states(h.rt, c.id)).toEqual({ Work: "COMPLETED", "Work#2": "COMPLETED", "Work#3": "COMPLETED" });
    expect(h.rt.getCase(T, c.id).ended).toBe(true);
  });

  test("an exit sentry terminates a stage with everything inside it", async () => {
    const h = makeCases();
    await deployFile(
      h.rt,
      cmmn(
        "x",
        `
      <planItem id="piStop" name="Stop" definitionRef="l"/>
      <planItem id="piS" name="Stage" definitionRef="st"><exitCriterion id="x1" sentryRef="s"/></planItem>
      <planItem id="piK" name="Keep" definitionRef="k"/>
      <sentry id="s"><planItemOnPart id="op" sourceRef="piStop"><standardEvent>occur</standardEvent></planItemOnPart></sentry>
      <userEventListener id="l" name="Stop"/>
      <humanTask id="k" name="Keep"/>
      <stage id="st" name="Stage"><planItem id="piA" name="A" definitionRef="a"/><humanTask id="a" name="A"/></stage>`,
      ),
    );
    const c = await h.rt.startCase(T, { definitionKey: "x" });
    await h.rt.triggerPlanItem(T, c.id, item(h.rt, c.id, "Stop").id, actor);
    expect(states(h.rt, c.id)).toEqual({ Stop: "COMPLETED", Stage: "TERMINATED", Keep: "ACTIVE", A: "TERMINATED" });
    expect(h.db.query("SELECT state FROM tasks WHERE instance_id = ? AND name = 'A'").get(c.id)).toEqual({
      state: "CANCELLED",
    });
  });

  test("a transition the state does not allow is refused naming the current state", async () => {
    const h = makeCases();
    await deployFile(h.rt, cmmn("t", `<planItem id="piA" name="A" definitionRef="a"/><humanTask id="a" name="A"/>`));
    const c = await h.rt.startCase(T, { definitionKey: "t" });
    const a = item(h.rt, c.id, "A");
    await expect(h.rt.startPlanItem(T, c.id, a.id, actor)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("it is active"),
    });
    await expect(h.rt.triggerPlanItem(T, c.id, a.id, actor)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(h.rt.startPlanItem(T, c.id, "nope", actor)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
