import { describe, expect, test } from "bun:test";
import { pageOf } from "../../../db/pagination";
import { byType } from "./merged-page";

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
    expect(page.content.map((r) => r.id)).toEqual(["p2", "c2", "c1"]);
    expect(page.totalElements).toBe(4);
    const second = byType({ page: 1, size: 3 }, processes.read, cases.read, (r) => r.startTime);
    expect(second.content.map((r) => r.id)).toEqual(["p1"]);
  });
});
