import { describe, expect, test } from "bun:test";
import { planOf, preparedWhile } from "../../../test/fixtures/bpmn/harness";
import { cmmn, deployFile, makeCases, T } from "../../../test/fixtures/cmmn/harness";

// Reads of one case definition's or one case's rows go through the case's own rows: the monitor's drill-down
// (GET /a/definitions/{key}/monitor/{activityId}) finds each plan item's task among its case's tasks, not among the
// tenant's open tasks, and picks the definition's running cases, not the tenant's; a case's timers are its jobs.
const REVIEW = cmmn(
  "review",
  `<planItem id="piA" name="A" definitionRef="a"/><humanTask id="a" name="A"/>
   <planItem id="piB" name="B" definitionRef="b"/><humanTask id="b" name="B"/>
   <planItem id="piT" definitionRef="t"/><timerEventListener id="t"><timerExpression>PT1H</timerExpression></timerEventListener>`,
);
const OTHER = cmmn("other", `<planItem id="piA" name="A" definitionRef="a"/><humanTask id="a" name="A"/>`);

function built() {
  let made: ReturnType<typeof makeCases> | undefined;
  const sqls = preparedWhile(() => {
    made = makeCases();
  });
  const one = (prefix: string) => {
    const found = sqls.filter((q) => q.trimStart().startsWith(prefix));
    expect(found).toHaveLength(1);
    return found[0]!;
  };
  return { ...made!, one };
}

describe("case reads", () => {
  test("the monitor's drill-down finds each case's task through the case, with the same rows", async () => {
    const { rt, db, one } = built();
    await deployFile(rt, REVIEW, "review.cmmn");
    await deployFile(rt, OTHER, "other.cmmn");
    const first = await rt.startCase(T, { definitionKey: "review", businessKey: "R-1" });
    const second = await rt.startCase(T, { definitionKey: "review", businessKey: "R-2" });
    await rt.startCase(T, { definitionKey: "other" });
    const openTask = db.query<{ id: string }, [string, string]>(
      "SELECT t.id FROM tasks t JOIN case_plan_items p ON p.id = t.execution_id AND p.case_instance_id = t.instance_id WHERE t.instance_id = ? AND p.element_id = ? AND t.state = 'OPEN'",
    );
    const items = rt.monitorItems(T, "review", "piA");
    expect(items.map((i) => [i.instanceId, i.businessKey, i.reason, i.taskId])).toEqual([
      [first.id, "R-1", "USER_TASK", openTask.get(first.id, "piA")!.id],
      [second.id, "R-2", "USER_TASK", openTask.get(second.id, "piA")!.id],
    ]);
    expect(() => rt.monitorItems("tenant-b", "review", "piA")).toThrow("not found");

    const plan = planOf(db, one("SELECT i.id AS instanceId"));
    expect(plan).toContain("SEARCH t USING INDEX tasks_instance_idx (instance_id=?) LEFT-JOIN");
    expect(plan).toContain(
      "SEARCH i USING INDEX case_instances_definition_idx (tenant_id=? AND definition_key=? AND state=?)",
    );
  });

  test("a case's timers are read through the case's jobs", async () => {
    const { rt, db, one } = built();
    await deployFile(rt, REVIEW, "review.cmmn");
    const first = await rt.startCase(T, { definitionKey: "review" });
    await rt.startCase(T, { definitionKey: "review" });
    expect(rt.timersOf(T, first.id)).toEqual([{ elementId: "piT", dueAt: "2025-01-06T10:00:00.000Z" }]);
    expect(rt.timersOf("tenant-b", first.id)).toEqual([]);
    expect(planOf(db, one("SELECT activity_id AS element_id, due_at FROM jobs"))[0]).toBe(
      "SEARCH jobs USING INDEX jobs_instance_idx (instance_id=?)",
    );
  });
});
