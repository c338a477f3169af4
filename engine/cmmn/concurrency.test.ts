import { describe, expect, test } from "bun:test";
import { cmmn, deployFile, makeCases, openTaskIds, states, T, actor } from "../../test/fixtures/cmmn/harness";

const STAGE_CASE = cmmn(
  "c",
  `
  <planItem id="piStage" name="Stage" definitionRef="st"/>
  <planItem id="piM" name="Done" definitionRef="m"><entryCriterion id="e1" sentryRef="s1"/></planItem>
  <sentry id="s1"><planItemOnPart id="op1" sourceRef="piStage"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
  <stage id="st" name="Stage">
    <planItem id="piA" name="A" definitionRef="a"/><planItem id="piB" name="B" definitionRef="b"/>
    <humanTask id="a" name="A"/><humanTask id="b" name="B"/>
  </stage>
  <milestone id="m" name="Done"/>`,
);

describe("concurrent case commands", () => {
  test("both tasks of one case completed at the same time: both count, and the case completes", async () => {
    const h = makeCases();
    await deployFile(h.rt, STAGE_CASE);
    const c = await h.rt.startCase(T, { definitionKey: "c" });
    await Promise.all(c.activeTasks.map((t) => h.rt.completeHumanTask(T, t.id, { [t.name]: true }, actor)));
    expect(states(h.rt, c.id)).toEqual({ Stage: "COMPLETED", Done: "COMPLETED", A: "COMPLETED", B: "COMPLETED" });
    expect(h.rt.getCase(T, c.id)).toMatchObject({ ended: true, variables: { A: true, B: true } });
  });

  test("the same task completed twice at once: one completion wins, the other is refused, the case moves once", async () => {
    const h = makeCases();
    await deployFile(h.rt, STAGE_CASE);
    const c = await h.rt.startCase(T, { definitionKey: "c" });
    const a = c.activeTasks.find((t) => t.name === "A")!;
    const outcomes = await Promise.allSettled([1, 2].map((n) => h.rt.completeHumanTask(T, a.id, { n }, actor)));
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/completed|not active/);
    expect(states(h.rt, c.id)).toMatchObject({ Stage: "ACTIVE", A: "COMPLETED", B: "ACTIVE" });
    expect(openTaskIds(h.db, c.id).map((t) => t.name)).toEqual(["B"]);
  });

  test("many cases started and driven at once all end, each with its own tasks", async () => {
    const h = makeCases();
    await deployFile(h.rt, STAGE_CASE);
    const started = await Promise.all(
      Array.from({ length: 20 }, (_, i) => h.rt.startCase(T, { definitionKey: "c", businessKey: `K${i}` })),
    );
    expect(new Set(started.flatMap((c) => c.activeTasks.map((t) => t.id))).size).toBe(40);
    await Promise.all(started.flatMap((c) => c.activeTasks.map((t) => h.rt.completeHumanTask(T, t.id, {}, actor))));
    for (const c of started) expect(h.rt.getCase(T, c.id).ended).toBe(true);
  });
});
