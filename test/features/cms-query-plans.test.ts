import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { PLAN } from "../../app/services/cms/query-plan";
import { MAX_TOTALS } from "../../app/services/cms/count-cache";

// Every query plan (ordered walk with a set or with probes, a walk cut by its cap, filter-then-sort, the walk of
// records without a sort value) must answer exactly what a plain reading of the records answers.

type Values = { name: string; n: number; cat: string; price?: number; flag: boolean; tags: string[] };
let s: TestServer;
let mgr: string;
let col: string;
const records: Values[] = Array.from({ length: 300 }, (_, i) => ({
  name: `N${String((i * 7919) % 300).padStart(3, "0")}`,
  n: i % 37,
  cat: `c${i % 5}`,
  ...(i % 4 === 0 ? {} : { price: ((i * 13) % 50) / 2 }),
  flag: i % 3 === 0,
  tags: ["a", "b", "c"].filter((_, b) => (i % 8) & (1 << b)),
}));
const defaults = { ...PLAN };

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "cms-plans", sa);
  mgr = (await userInTenant(s, t, "MANAGER", sa)).token;
  const res = await s.req("POST", "/api/a/cms/collections", {
    token: mgr,
    json: {
      name: "items",
      confidentiality: "PUBLIC",
      fields: [
        { name: "name", type: "text" },
        { name: "n", type: "integer" },
        { name: "cat", type: "select", options: ["c0", "c1", "c2", "c3", "c4"] },
        { name: "price", type: "number" },
        { name: "flag", type: "boolean" },
        { name: "tags", type: "multiselect", options: ["a", "b", "c"] },
      ],
    },
  });
  col = ((await res.json()) as { id: string }).id;
  expect(
    (await s.req("POST", `/api/a/cms/collections/${col}/records/bulk`, { token: mgr, json: { records } })).status,
  ).toBe(200);
});
afterEach(() => {
  Object.assign(PLAN, defaults);
  MAX_TOTALS.value = 128;
});
afterAll(() => s.close());

type Pred = (r: Values) => boolean;
const filters: [string, Pred][] = [
  ["", () => true],
  ["filter.cat=c1", (r) => r.cat === "c1"],
  ["filter.cat.ne=c1", (r) => r.cat !== "c1"],
  ["filter.n.gte=10&filter.n.lt=20", (r) => r.n >= 10 && r.n < 20],
  ["filter.cat=c2&filter.n.gte=5", (r) => r.cat === "c2" && r.n >= 5],
  ["filter.tags=a", (r) => r.tags.includes("a")],
  ["filter.tags.in=a,b", (r) => r.tags.includes("a") || r.tags.includes("b")],
  ["filter.tags.contains=b&filter.flag=false", (r) => r.tags.includes("b") && !r.flag],
  ["filter.name.contains=N1", (r) => r.name.includes("N1")],
  ["filter.price.gt=10", (r) => r.price !== undefined && r.price > 10],
  ["filter.price.gt=10&filter.cat=c3", (r) => r.price !== undefined && r.price > 10 && r.cat === "c3"],
  ["filter.price.ne=5", (r) => r.price !== 5],
  ["filter.flag=true&filter.tags.ne=c", (r) => r.flag && !r.tags.includes("c")],
  [
    "filter.cat.in=c1,c3&filter.price.lte=20",
    (r) => (r.cat === "c1" || r.cat === "c3") && r.price !== undefined && r.price <= 20,
  ],
  ["filter.n=5", (r) => r.n === 5],
  ["filter.n=5&filter.cat=c0", (r) => r.n === 5 && r.cat === "c0"],
];
const sorts: [string, keyof Values | null, boolean][] = [
  ["", null, false],
  ["sort=createdAt,desc", null, true],
  ["sort=n,asc", "n", false],
  ["sort=n,desc", "n", true],
  ["sort=price,asc", "price", false],
  ["sort=price,desc", "price", true],
  ["sort=name,asc", "name", false],
];
// Pages 32 and 40 of 7 cross into, and lie past, the records without a price (225 of 300 have one).
const pages = [
  [0, 7],
  [3, 7],
  [32, 7],
  [40, 7],
  [0, 1000],
];

/** What the page must hold: filter, then order by the sort key (no value last), ties in insertion order. */
function expected(pred: Pred, key: keyof Values | null, desc: boolean, page: number, size: number) {
  const rows = records.map((r, seq) => ({ r, seq })).filter(({ r }) => pred(r));
  const sign = desc ? -1 : 1;
  rows.sort((a, b) => {
    if (key) {
      const [x, y] = [a.r[key], b.r[key]];
      if ((x === undefined) !== (y === undefined)) return x === undefined ? 1 : -1;
      if (x !== undefined && x !== y) return (x! < y! ? -1 : 1) * sign;
    }
    return (a.seq - b.seq) * sign;
  });
  return { names: rows.slice(page * size, page * size + size).map(({ r }) => r.name), total: rows.length };
}

async function compareAll() {
  for (const [fq, pred] of filters) {
    for (const [sq, key, desc] of sorts) {
      for (const [page, size] of pages) {
        const qs = [fq, sq, `page=${page}&size=${size}`].filter(Boolean).join("&");
        const res = await s.req("GET", `/api/a/cms/collections/${col}/records?${qs}`, { token: mgr });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { content: { values: Values }[]; totalElements: number };
        const want = expected(pred, key, desc, page, size);
        expect({ qs, total: body.totalElements, names: body.content.map((r) => r.values.name) }).toEqual({
          qs,
          ...want,
        });
      }
    }
  }
}

describe("CMS query plans", () => {
  test("the default plans answer like a plain reading of the records", compareAll);

  test("ordered walks testing membership in the candidate set answer the same", async () => {
    Object.assign(PLAN, { small: 0, probe: 1 });
    await compareAll();
  });

  test("ordered walks probing membership per step answer the same", async () => {
    Object.assign(PLAN, { small: 0, inList: 0 });
    await compareAll();
  });

  test("walks cut short by their cap fall back to sorting the candidates and answer the same", async () => {
    Object.assign(PLAN, { small: 0, walkPerCandidate: 0, probeWalk: 0 });
    await compareAll();
    Object.assign(PLAN, { small: 0, inList: 0, walkPerCandidate: 0, probeWalk: 0 });
    await compareAll();
  });

  test("with no total remembered, pages counted in the same pass as their sort answer the same", async () => {
    MAX_TOTALS.value = 0;
    await compareAll();
    Object.assign(PLAN, { small: 0 });
    await compareAll();
  });

  test("sorting every candidate answers the same", async () => {
    Object.assign(PLAN, { small: 1_000_000 });
    await compareAll();
  });

  test("a total counted once for a filter follows every later write", async () => {
    const base = `/api/a/cms/collections/${col}/records`;
    const total = async () =>
      (
        (await (await s.req("GET", `${base}?filter.cat=c4&filter.n.gte=30`, { token: mgr })).json()) as {
          totalElements: number;
        }
      ).totalElements;
    const before = await total();
    expect(before).toBe(records.filter((r) => r.cat === "c4" && r.n >= 30).length);
    expect(await total()).toBe(before);
    const created = await s.req("POST", base, {
      token: mgr,
      json: { values: { name: "X1", n: 36, cat: "c4", flag: false, tags: [] } },
    });
    const id = ((await created.json()) as { id: string }).id;
    expect(await total()).toBe(before + 1);
    await s.req("PUT", `${base}/${id}`, {
      token: mgr,
      json: { values: { name: "X1", n: 1, cat: "c4", flag: false, tags: [] } },
    });
    expect(await total()).toBe(before);
    await s.req("PUT", `${base}/${id}`, {
      token: mgr,
      json: { values: { name: "X1", n: 31, cat: "c4", flag: false, tags: [] } },
    });
    expect(await total()).toBe(before + 1);
    expect((await s.req("DELETE", `${base}/${id}`, { token: mgr })).status).toBe(204);
    expect(await total()).toBe(before);
  });
});
