// bench:cms — CMS bulk loads and filtered pages over 1,000,000 records; attachment upload/download of 50 MB.
// Targets (issue 7): 20,000 records in < 1 s; a filtered page over 1,000,000 records p99 < 50 ms;
// uploads stream to disk (peak memory far below the file size).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../app/platform/config";
import { createPlatform } from "../app/platform/platform";
import { httpDepsOf } from "../app/platform/http-deps";
import { bootstrapSuperAdmin } from "../app/platform/bootstrap";
import { createApp } from "../app/http/app";
import { SYSTEM_ACTOR } from "../app/services/attachments/system-actor";
import type { TenantCtx } from "../app/services/context";
import { bulkLoad } from "../app/services/cms-records/bulk";
import { createCollection } from "../app/services/cms-collections/collections";
import { queryRecords } from "../app/services/cms/query";
import { MAX_TOTALS } from "../app/services/cms/count-cache";
import { multipartUpload } from "./support/multipart-upload";

const ROWS = Number(process.env.CMS_BENCH_ROWS ?? 1_000_000);
const FILE_MB = Number(process.env.CMS_BENCH_FILE_MB ?? 50);
const dataDir = mkdtempSync(join(tmpdir(), "bench-cms-"));
const platform = createPlatform({
  config: loadConfig({
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_EMAIL: "sa@bench.local",
    BOOTSTRAP_ADMIN_PASSWORD: "bench-password-1",
    JWT_SECRET: "bench-secret-0123456789-0123456789",
    MAX_UPLOAD_BYTES: String(200 * 1024 * 1024),
  }),
  log: () => {},
});
await bootstrapSuperAdmin(platform);
const app = createApp(httpDepsOf(platform));
const json = async (method: string, path: string, token: string | null, body?: unknown) => {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as Record<string, unknown>;
};

const login = await json("POST", "/api/auth/login", null, { email: "sa@bench.local", password: "bench-password-1" });
const sa = login.accessToken as string;
const tenant = await json("POST", "/api/admin/tenants", sa, { slug: "bench", name: "Bench" });
await platform.idle();
const token = (await json("POST", "/api/auth/select-tenant", sa, { tenantSlug: "bench" })).accessToken as string;
// The bench's own ctx, leased for the whole run: the lease ends when the process does.
const ctx = await new Promise<TenantCtx>((hold) => {
  void platform.withTenantCtx(platform.tenants.get(tenant.id as string)!, SYSTEM_ACTOR, "bench", (c: TenantCtx) => {
    hold(c);
    return new Promise<never>(() => {});
  });
});

const fields = [
  { name: "sku", type: "text", required: true },
  { name: "title", type: "text" },
  { name: "category", type: "select", options: Array.from({ length: 100 }, (_, i) => `c${i}`) },
  { name: "price", type: "number" },
  { name: "stock", type: "integer" },
  { name: "active", type: "boolean" },
];
const recordsFrom = (start: number, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const k = start + i;
    return {
      sku: `SKU-${k}`,
      title: `Product ${k}`,
      category: `c${k % 100}`,
      price: (k % 1000) / 10,
      stock: k % 500,
      active: k % 2 === 0,
    };
  });
const ms = (t0: number) => performance.now() - t0;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const rows: [string, string, string][] = [];
const step = (m: string) => console.error(`[bench] ${m}`);
step("ready");

await attachmentBench();
step("attachments done");

// --- Bulk loads of 20,000 records over HTTP (JSON parse, validation, one transaction) ---
for (const [label, keyField] of [
  ["bulk 20,000 without keyField", undefined],
  ["bulk 20,000 with keyField (inserts)", "sku"],
] as const) {
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    const col = await json("POST", "/api/a/cms/collections", token, {
      name: `bulk-${label}-${run}`,
      fields,
      confidentiality: "PUBLIC",
    });
    const body = { records: recordsFrom(0, 20_000), keyField };
    const t0 = performance.now();
    const r = await json("POST", `/api/a/cms/collections/${col.id}/records/bulk`, token, body);
    times.push(ms(t0));
    if (r.inserted !== 20_000) throw new Error(JSON.stringify(r));
    if (keyField && run === 2) {
      const t1 = performance.now();
      const again = await json("POST", `/api/a/cms/collections/${col.id}/records/bulk`, token, body);
      const t = ms(t1);
      if (again.updated !== 20_000) throw new Error(JSON.stringify(again));
      rows.push([
        "bulk 20,000 with keyField (all updates, idempotent reload)",
        `${t.toFixed(0)} ms`,
        `${Math.round(20_000 / (t / 1000)).toLocaleString("en")} records/s`,
      ]);
    }
  }
  const med = pct(times, 50);
  rows.push([
    label,
    `${med.toFixed(0)} ms (median of 3)`,
    `${Math.round(20_000 / (med / 1000)).toLocaleString("en")} records/s`,
  ]);
}

step("bulk done");
// --- 1,000,000 records, then filtered pages ---
const big = createCollection({ ctx, input: { name: "big", fields, confidentiality: "SECRET" } });
const tLoad = performance.now();
for (let start = 0; start < ROWS; start += 20_000)
  bulkLoad({
    ctx,
    input: { collectionId: big.id, ...{ records: recordsFrom(start, Math.min(20_000, ROWS - start)) } },
  });
const loadMs = ms(tLoad);
rows.push([
  `load ${ROWS.toLocaleString("en")} records (service, 20,000 per transaction)`,
  `${(loadMs / 1000).toFixed(1)} s`,
  `${Math.round(ROWS / (loadMs / 1000)).toLocaleString("en")} records/s`,
]);

step("loaded");
// Totals are remembered per filter until the next write (count-cache.ts); off here, so every row below pays for
// its count like the first page of a new filter. The last HTTP row measures paging with the total remembered.
MAX_TOTALS.value = 0;
const svc = (q: Omit<Parameters<typeof queryRecords>[0], "tenantDb" | "collectionId" | "clearance">) =>
  queryRecords({ tenantDb: ctx.db, collectionId: big.id, clearance: "SECRET", limit: 20, ...q });
const queries: [string, (i: number) => unknown][] = [
  ["page: category = c42 (1% match), size 20", () => svc({ filter: { category: "c42" } })],
  ["page: category = c42, page 10", () => svc({ filter: { category: "c42" }, offset: 200 })],
  ["page: sku = SKU-777777 (key lookup)", () => svc({ filter: { sku: "SKU-777777" } })],
  [
    "page: category = c42, sorted by price desc",
    () => svc({ filter: { category: "c42" }, sort: { field: "price", direction: "desc" } }),
  ],
  [
    "page: category = c42 and price >= 50, sorted by price desc",
    () => svc({ filter: { category: "c42", price: { gte: 50 } }, sort: { field: "price", direction: "desc" } }),
  ],
  ["page: stock between 10 and 12 (0.6% match)", () => svc({ filter: { stock: { gte: 10, lte: 12 } } })],
  [
    "page: stock between 10 and 12, sorted by title",
    () => svc({ filter: { stock: { gte: 10, lte: 12 } }, sort: { field: "title" } }),
  ],
  ["page: active = true (50% match)", () => svc({ filter: { active: true } })],
  ["page: no filter, first page", () => svc({})],
  ["page: no filter, sorted by price desc", () => svc({ sort: { field: "price", direction: "desc" } })],
];
for (const [label, q] of queries) {
  step(label);
  for (let i = 0; i < 5; i++) q(i);
  const times: number[] = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    q(i);
    times.push(ms(t0));
  }
  rows.push([label, `p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms`, ""]);
}
// Over HTTP each request filters on another category (and another price bound), so no page is served warm.
const httpRows: [string, (i: number) => string][] = [
  ["HTTP filter.category=c<i> (1% match), size 20", (i) => `filter.category=c${i % 100}`],
  ["HTTP filter.category=c<i>, sort=price,desc", (i) => `filter.category=c${i % 100}&sort=price,desc`],
  [
    "HTTP filter.category=c<i>&filter.price.gte=50…, sort=price,desc",
    (i) => `filter.category=c${i % 100}&filter.price.gte=${50 + i / 1000}&sort=price,desc`,
  ],
];
const get = async (qs: string) => {
  const res = await app.request(`/api/a/cms/collections/${big.id}/records?${qs}&size=20`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  await res.arrayBuffer();
};
for (const [label, qs] of httpRows) {
  step(label);
  const times: number[] = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    await get(qs(i));
    times.push(ms(t0));
  }
  rows.push([label, `p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms`, ""]);
}
{
  MAX_TOTALS.value = 128;
  const times: number[] = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    await get(`filter.category=c${Math.floor(i / 5)}&filter.price.gte=50&sort=price,desc&page=${i % 5}`);
    times.push(ms(t0));
  }
  rows.push([
    "HTTP same two filters, pages 0-4 of each (total remembered after page 0)",
    `p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms`,
    "",
  ]);
}

step("queries done");
// --- Attachments: a 50 MB upload streamed as multipart, then downloaded (run first, on a small heap) ---
async function attachmentBench() {
  Bun.gc(true);
  const baseRss = process.memoryUsage().rss;
  let peak = baseRss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const size = FILE_MB * 1024 * 1024;
  const boundary = "----bench-boundary-7f3a";
  const body = multipartUpload(size, boundary);
  const tUp = performance.now();
  const up = await app.request("/api/a/attachments", {
    method: "POST",
    body,
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    // @ts-expect-error: Bun accepts duplex for streamed request bodies
    duplex: "half",
  });
  const upMs = ms(tUp);
  const att = (await up.json()) as { id: string; size: number };
  if (att.size !== size) throw new Error(`upload failed: ${JSON.stringify(att)}`);
  const upPeak = peak - baseRss;
  peak = process.memoryUsage().rss;
  const dlBase = peak;
  const tDown = performance.now();
  const down = await app.request(`/api/a/attachments/${att.id}/download`, {
    headers: { authorization: `Bearer ${token}` },
  });
  let got = 0;
  const reader = down.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) got += r.value.byteLength;
  const downMs = ms(tDown);
  clearInterval(sampler);
  if (got !== size) throw new Error(`download returned ${got} bytes`);
  const mbps = (t: number) => `${(FILE_MB / (t / 1000)).toFixed(0)} MB/s`;
  rows.push([
    `upload ${FILE_MB} MB (streamed multipart, sha256, fsync, rename)`,
    `${upMs.toFixed(0)} ms, ${mbps(upMs)}`,
    `peak RSS +${(upPeak / 1048576).toFixed(1)} MB`,
  ]);
  rows.push([
    `download ${FILE_MB} MB`,
    `${downMs.toFixed(0)} ms, ${mbps(downMs)}`,
    `peak RSS +${((peak - dlBase) / 1048576).toFixed(1)} MB`,
  ]);
  // For comparison: the same body read by Bun's Request.formData(), which holds the whole file in memory.
  Bun.gc(true);
  const fdBase = process.memoryUsage().rss;
  let fdPeak = fdBase;
  const fdSampler = setInterval(() => (fdPeak = Math.max(fdPeak, process.memoryUsage().rss)), 5);
  const big = new Uint8Array(size);
  const fd = new FormData();
  fd.append("file", new Blob([big]), "big.bin");
  const parsed = await new Request("http://x/", { method: "POST", body: fd }).formData();
  fdPeak = Math.max(fdPeak, process.memoryUsage().rss);
  clearInterval(fdSampler);
  rows.push([
    `Bun formData() on the same ${FILE_MB} MB (not used)`,
    `${(parsed.get("file") as Blob).size === size ? "parsed" : "?"}`,
    `peak RSS +${((fdPeak - fdBase) / 1048576).toFixed(1)} MB`,
  ]);
}

const { loadavg, cpus } = await import("node:os");
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")} on ${cpus().length} CPUs`,
);
console.log("| operation | time | throughput / memory |\n|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
await platform.stop();
rmSync(dataDir, { recursive: true, force: true });
