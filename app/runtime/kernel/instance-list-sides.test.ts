import { describe, expect, test } from "bun:test";
import { openSqlite } from "../../../db/connection";
import { runMigrations } from "../../../db/migrate";
import { ALL, bpmn, T, tempDbPath, testClock } from "../../../test/fixtures/bpmn/harness";
import { cmmn } from "../../../test/fixtures/cmmn/harness";
import { createProcessRuntime } from "../bpmn";
import { createCaseRuntime } from "../cmmn";

// A user's list of instances or cases is read from their involvements, or, when the tenant holds few in the listed
// state and the user takes part in more, from the table with a probe per row (instance-queries.ts `list`). Both must
// answer the same page and total: these scenarios put the table side to work and check it against the whole tenant's
// list filtered by hand.
const WAIT = bpmn(
  "wait",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>
   <sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
);
const CASE = cmmn("review", `<planItem id="piA" name="A" definitionRef="a"/><humanTask id="a" name="A"/>`);

async function tenant() {
  const db = openSqlite(tempDbPath());
  runMigrations(db, "engine");
  const clock = testClock();
  const rt = createProcessRuntime({ db, clock });
  const cases = createCaseRuntime({ db, clock });
  await rt.deploy(T, WAIT, { fileName: "w.bpmn", createdBy: null });
  await cases.deploy(T, CASE, { fileName: "r.cmmn", createdBy: null });
  const start = async (startedBy: string) => {
    clock.advance(1000); // distinct start times: the list's order is by start time
    return rt.startInstance(T, { definitionKey: "wait", startedBy });
  };
  return { rt, cases, clock, start };
}
const user = (userId: string) => ({ all: false, userId, groups: [] as string[] });

describe("a user's list of instances and cases", () => {
  test("a user taking part in more instances than the tenant runs gets exactly their running ones, newest first", async () => {
    const { rt, start } = await tenant();
    const mine = [];
    for (let i = 0; i < 5; i++) mine.push(await start("ann"));
    for (const done of mine.slice(0, 3))
      await rt.completeTask(T, done.activeTasks[0].id, {}, { userId: "ann", channel: "REST" });
    for (let i = 0; i < 2; i++) await start("bob");
    // The tenant runs 4 (2 of Ann's, 2 of Bob's); Ann takes part in 5 (3 ended): the table side reads the 4.
    const running = rt.listInstances(T, user("ann"), {});
    const expected = rt
      .listInstances(T, ALL, {})
      .content.filter((i) => i.startedBy === "ann")
      .map((i) => i.id);
    expect(running.content.map((i) => i.id)).toEqual(expected);
    expect(expected).toEqual([mine[4].id, mine[3].id]);
    expect(running.totalElements).toBe(2);
    const second = rt.listInstances(T, user("ann"), { page: 1, size: 1 });
    expect(second.content.map((i) => i.id)).toEqual([mine[3].id]);
    expect(second.totalElements).toBe(2);
    // Ended: the tenant has 3, Ann takes part in 5: the table side again, most recently ended first.
    const ended = rt.listInstances(T, user("ann"), { state: "ended" });
    expect(ended.content.map((i) => i.id).sort()).toEqual(
      mine
        .slice(0, 3)
        .map((i) => i.id)
        .sort(),
    );
    expect(ended.totalElements).toBe(3);
    // Bob takes part in 2 of the 4 running: read from his involvements.
    expect(rt.listInstances(T, user("bob"), {}).totalElements).toBe(2);
    // Nobody's list holds another's instance.
    expect(rt.listInstances(T, user("carl"), {})).toMatchObject({ content: [], totalElements: 0 });
  });

  test("a user taking part in processes only lists no case, and their cases when they have some", async () => {
    const { cases, start } = await tenant();
    for (let i = 0; i < 3; i++) await start("ann");
    expect(cases.listCases(T, user("ann"), {})).toMatchObject({ content: [], totalElements: 0 });
    const c = await cases.startCase(T, { definitionKey: "review", startedBy: "ann" });
    await cases.startCase(T, { definitionKey: "review", startedBy: "bob" });
    const listed = cases.listCases(T, user("ann"), {});
    expect(listed.content.map((x) => x.id)).toEqual([c.id]);
    expect(listed.totalElements).toBe(1);
  });
});
