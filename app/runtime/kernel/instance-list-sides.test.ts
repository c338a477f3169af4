import type { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { openSqlite } from "../../../db/connection";
import { runMigrations } from "../../../db/migrate";
import { ALL, bpmn, planOf, T, tempDbPath, testClock } from "../../../test/fixtures/bpmn/harness";
import { cmmn } from "../../../test/fixtures/cmmn/harness";
import { createProcessRuntime } from "../bpmn";
import { createCaseRuntime } from "../cmmn";
import { createKernel } from "./kernel";

// A user's list of instances or cases is read from their involvements, or, when the tenant holds few in the listed
// state and the user takes part in more, from the table with a probe per row (instance-queries.ts `list`). Both must
// answer the same page and total: these scenarios put the table side to work and check it against the whole tenant's
// list filtered by hand.
const WAIT = bpmn(
  "wait",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>
   <sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
);
const ROLE = (key: string, group: string) =>
  bpmn(
    key,
    `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t" flowable:candidateGroups="${group}"/>
     <sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
  );
const CASE = cmmn("review", `<planItem id="piA" name="A" definitionRef="a"/><humanTask id="a" name="A"/>`);

async function tenant() {
  const db = openSqlite(tempDbPath());
  runMigrations(db, "engine");
  const clock = testClock();
  const kernel = createKernel({ db, clock });
  const rt = createProcessRuntime({ kernel });
  const cases = createCaseRuntime({ kernel });
  for (const tenantId of [T, OTHER]) {
    await rt.deploy(tenantId, WAIT, { fileName: "w.bpmn", createdBy: null });
    await rt.deploy(tenantId, ROLE("clerks", "clerks"), { fileName: "c.bpmn", createdBy: null });
    await rt.deploy(tenantId, ROLE("audits", "auditors"), { fileName: "a.bpmn", createdBy: null });
    await cases.deploy(tenantId, CASE, { fileName: "r.cmmn", createdBy: null });
  }
  const start = async (startedBy: string, definitionKey = "wait", tenantId = T) => {
    clock.advance(1000); // distinct start times: the list's order is by start time
    return rt.startInstance(tenantId, { definitionKey, startedBy });
  };
  return { db, rt, cases, clock, start, read: recorded(db) };
}
const OTHER = "tenant-b";
const user = (userId: string | null, groups: string[] = []) => ({ all: false, userId, groups });
const done = { userId: "x", channel: "REST" };

/** The SQL texts `db` prepares from now on (the runtimes prepare their list reads per call). */
function recorded(db: Database) {
  const seen = new Set<string>();
  const query = db.query.bind(db);
  db.query = ((sql: string) => {
    seen.add(sql);
    return query(sql);
  }) as typeof db.query;
  return {
    /** The reads of the table side (a row probed for an involvement) since the last call. */
    tableSide() {
      const out = [...seen].filter((q) => q.includes("FROM involvements v") && q.includes("COUNT(*) OVER ()"));
      seen.clear();
      return out;
    },
    all: () => [...seen],
  };
}

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

  test("a user through process roles only, and with two roles, gets their running ones from the table side", async () => {
    const { rt, start, read } = await tenant();
    const clerks = [];
    for (let i = 0; i < 4; i++) clerks.push(await start("bob", "clerks"));
    for (const c of clerks.slice(0, 3)) await rt.completeTask(T, c.activeTasks[0].id, {}, done);
    const audits = [await start("bob", "audits"), await start("bob", "audits")];
    await start("bob", "clerks", OTHER);
    read.tableSide();
    // The tenant runs 3; the clerks role takes part in 4 (3 ended), both roles in 6: the table side each time.
    const dave = rt.listInstances(T, user(null, ["clerks"]), {});
    expect(read.tableSide()).toHaveLength(1);
    expect(dave.content.map((i) => i.id)).toEqual([clerks[3].id]);
    expect(dave.totalElements).toBe(1);
    const both = rt.listInstances(T, user("erin", ["clerks", "auditors"]), {});
    expect(read.tableSide()).toHaveLength(1);
    expect(both.content.map((i) => i.id)).toEqual([audits[1].id, audits[0].id, clerks[3].id]);
    expect(both.totalElements).toBe(3);
    expect(rt.listInstances(T, user("erin", ["clerks", "auditors"]), { page: 1, size: 2 })).toMatchObject({
      content: [{ id: clerks[3].id }],
      totalElements: 3,
    });
    // Past the end: nothing, with the total.
    expect(rt.listInstances(T, user("erin", ["clerks", "auditors"]), { page: 5, size: 2 })).toMatchObject({
      content: [],
      totalElements: 3,
    });
    const ended = rt.listInstances(T, user(null, ["clerks"]), { state: "ended" });
    expect(ended.content.map((i) => i.id).sort()).toEqual(
      clerks
        .slice(0, 3)
        .map((c) => c.id)
        .sort(),
    );
  });

  test("another tenant's instances never appear on either side, whatever that tenant holds", async () => {
    const { rt, cases, start, read } = await tenant();
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push(await start("ann"));
    await rt.completeTask(T, mine[0].activeTasks[0].id, {}, done);
    // Ann (the same user id) in the other tenant: more instances and cases, running and ended.
    const theirs = [];
    for (let i = 0; i < 6; i++) theirs.push(await start("ann", "wait", OTHER));
    for (const t of theirs.slice(0, 2)) await rt.completeTask(OTHER, t.activeTasks[0].id, {}, done);
    const theirCase = await cases.startCase(OTHER, { definitionKey: "review", startedBy: "ann" });
    read.tableSide();
    const running = rt.listInstances(T, user("ann"), {});
    expect(read.tableSide()).toHaveLength(1); // 2 running in this tenant, Ann in 3 here
    expect(running.content.map((i) => i.id)).toEqual([mine[2].id, mine[1].id]);
    expect(running.totalElements).toBe(2);
    expect(rt.historyInstances(T, user("ann"), {}).content.map((i) => i.id)).toEqual([mine[0].id]);
    expect(cases.listCases(T, user("ann"), {})).toMatchObject({ content: [], totalElements: 0 });
    // And the other way round: in the other tenant, only its own.
    expect(rt.listInstances(OTHER, user("ann"), {}).totalElements).toBe(4);
    expect(rt.historyInstances(OTHER, user("ann"), {}).totalElements).toBe(2);
    expect(cases.listCases(OTHER, user("ann"), {}).content.map((c) => c.id)).toEqual([theirCase.id]);
  });

  test("the table side reads the listed state's index and probes each row's involvements by their key", async () => {
    const { db, rt, cases, start, read } = await tenant();
    for (let i = 0; i < 3; i++) await start("ann", "clerks");
    const c = await cases.startCase(T, { definitionKey: "review", startedBy: "ann" });
    await cases.cancelCase(T, c.id);
    await cases.startCase(T, { definitionKey: "review", startedBy: "ann" });
    read.tableSide();
    for (const v of [user("ann"), user("ann", ["clerks", "auditors"])]) {
      for (const state of ["running", "ended"] as const) {
        rt.listInstances(T, v, { state });
        cases.listCases(T, v, { state });
      }
      rt.historyInstances(T, v, {});
      cases.historyCases(T, v, {});
    }
    const prepared = read.all();
    const reads = read.tableSide();
    // Both tables, each state, one user alone and one with roles.
    expect(reads.length).toBeGreaterThanOrEqual(8);
    const byState =
      /^SEARCH i USING INDEX (process_instances_(running|ended|history|definition)_idx|case_instances_(tenant_state|history)_idx) \(tenant_id=\?/;
    for (const sql of reads) {
      const steps = planOf(db, sql);
      expect(steps.filter((s) => / i /.test(` ${s} `)).every((s) => byState.test(s))).toBe(true);
      const probes = steps.filter((s) => / v /.test(` ${s} `));
      expect(probes.length).toBeGreaterThan(0);
      for (const p of probes) expect(p).toContain("USING PRIMARY KEY (instance_id=? AND kind=? AND principal=?)");
    }
    // The bound on the user's involvements stops reading at the bound, roles or not (no sort of them all first).
    const bounds = prepared.filter((q) => q.includes("LIMIT ?)") && q.includes("FROM involvements"));
    expect(bounds.length).toBeGreaterThanOrEqual(2);
    for (const sql of bounds) expect(planOf(db, sql).join("\n")).not.toContain("TEMP B-TREE");
  });
});
