import { describe, expect, test } from "bun:test";
import { pageOf } from "../../../db/pagination";
import { openSqlite } from "../../../db/connection";
import { runMigrations } from "../../../db/migrate";
import { ALL, bpmn, T, tempDbPath, testClock } from "../../../test/fixtures/bpmn/harness";
import { cmmn } from "../../../test/fixtures/cmmn/harness";
import { createProcessRuntime } from "../../runtime/bpmn";
import { createCaseRuntime } from "../../runtime/cmmn";
import { byType } from "./merged-page";
import type { InstanceSummary } from "./read";
import { createKernel } from "../../runtime/kernel/kernel";

const WAIT = bpmn("wait", `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="t"/><userTask id="t"/>`);
const CASE = cmmn("review", `<planItem id="piA" name="A" definitionRef="a"/><humanTask id="a" name="A"/>`);

type Row = { id: string; startTime: string; endTime: string | null };
const row = (id: string, startTime: string): Row => ({ id, startTime, endTime: null });

/** A paginated source over `rows` (newest first) that counts its calls. */
function source(rows: Row[]) {
  const calls: [number, number][] = [];
  const read = (page: number, size: number) => {
    calls.push([page, size]);
    return pageOf(rows.slice(page * size, page * size + size), rows.length, page, size);
  };
  return { read, calls };
}

describe("one page over processes and cases", () => {
  test("a tenant without cases reads its process page once, and the cases only to see there are none", () => {
    const processes = source([row("p2", "2026-01-02"), row("p1", "2026-01-01")]);
    const cases = source([]);
    const page = byType({ page: 0, size: 20 }, processes.read, cases.read, (r) => r.startTime);
    expect(page.content.map((r) => r.id)).toEqual(["p2", "p1"]);
    expect(page.totalElements).toBe(2);
    expect(processes.calls).toEqual([[0, 20]]);
    expect(cases.calls).toEqual([[0, 1]]);
  });

  test("a tenant without processes pages its cases alone", () => {
    const processes = source([]);
    const cases = source([row("c1", "2026-01-01")]);
    const page = byType({}, processes.read, cases.read, (r) => r.startTime);
    expect(page.content.map((r) => r.id)).toEqual(["c1"]);
    expect(processes.calls).toEqual([[0, 1]]);
  });

  test("a mix is merged newest first, ties by id, with both totals", () => {
    const processes = source([row("p2", "2026-01-03"), row("p1", "2026-01-01")]);
    const cases = source([row("c2", "2026-01-03"), row("c1", "2026-01-02")]);
    const page = byType({ page: 0, size: 3 }, processes.read, cases.read, (r) => r.startTime);
    expect(page.content.map((r) => r.id)).toEqual(["c2", "p2", "c1"]);
    expect(page.totalElements).toBe(4);
    const second = byType({ page: 1, size: 3 }, processes.read, cases.read, (r) => r.startTime);
    expect(second.content.map((r) => r.id)).toEqual(["p1"]);
  });

  test("rows starting together are paged in the sides' own order (id ascending): none repeats, none goes missing", () => {
    // As the runtimes answer them: start time descending, then id ascending.
    const processes = source([row("p1", "2026-01-02"), row("p2", "2026-01-02"), row("p3", "2026-01-02")]);
    const cases = source([row("c1", "2026-01-01")]);
    const pages = [0, 1, 2].map((page) => byType({ page, size: 2 }, processes.read, cases.read, (r) => r.startTime));
    expect(pages.map((p) => p.content.map((r) => r.id))).toEqual([["p1", "p2"], ["p3", "c1"], []]);
    expect(pages.map((p) => p.totalElements)).toEqual([4, 4, 4]);
  });
});

describe("one page over a runtime's processes and cases", () => {
  test("instances and cases started in the same millisecond: pages of two are the one long page cut up", async () => {
    const db = openSqlite(tempDbPath());
    runMigrations(db, "engine");
    const clock = testClock();
    const kernel = createKernel({ db, clock });
    const rt = createProcessRuntime({ kernel });
    const cases = createCaseRuntime({ kernel });
    await rt.deploy(T, WAIT, { fileName: "w.bpmn", createdBy: null });
    await cases.deploy(T, CASE, { fileName: "r.cmmn", createdBy: null });
    await cases.deploy("tenant-b", CASE, { fileName: "r.cmmn", createdBy: null });
    await rt.startInstance(T, { definitionKey: "wait", startedBy: "ann" });
    await cases.startCase("tenant-b", { definitionKey: "review", startedBy: "ann" });
    clock.advance(1000);
    for (let i = 0; i < 4; i++) await rt.startInstance(T, { definitionKey: "wait", startedBy: "ann" });
    for (let i = 0; i < 3; i++) await cases.startCase(T, { definitionKey: "review", startedBy: "ann" });
    for (const v of [ALL, { all: false, userId: "ann", groups: [] }]) {
      const list = (page: number, size: number) =>
        byType<InstanceSummary>(
          { page, size },
          (p, s) => rt.listInstances(T, v, { page: p, size: s }),
          (p, s) => cases.listCases(T, v, { page: p, size: s }),
          (r) => r.startTime,
        );
      const whole = list(0, 100);
      expect(whole.totalElements).toBe(8); // not the other tenant's case
      const cut = [0, 1, 2, 3, 4].flatMap((n) => list(n, 2).content.map((r) => r.id));
      expect(cut).toEqual(whole.content.map((r) => r.id));
      expect(new Set(cut).size).toBe(8);
      // Each kind keeps its own order inside the merged one.
      const processIds = rt.listInstances(T, v, { size: 100 }).content.map((r) => r.id);
      expect(cut.filter((id) => processIds.includes(id))).toEqual(processIds);
      expect(list(4, 2)).toMatchObject({ content: [], totalElements: 8, totalPages: 4 });
    }
  });
});
