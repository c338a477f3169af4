// bench:sqlite-reader-cache — what a commit on another connection costs the reads of this one (issue 19's writer-thread
// question). SQLite drops a connection's whole page cache when it finds the WAL changed by someone else, so a writer on
// its own connection (a worker thread) would make the event loop's next reads fetch their pages again. Each round: one
// small write, by this connection or by another, then six point reads by this connection over a 200,000-row table.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "pms-reader-cache-"));
const reader = new Database(join(dir, "bench.sqlite"));
reader.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536");
reader.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE TABLE w (id INTEGER PRIMARY KEY, v TEXT)");
const fill = reader.prepare("INSERT INTO t (v) VALUES (?)");
reader.transaction(() => {
  for (let i = 0; i < 200_000; i++) fill.run("x".repeat(100));
})();
const other = new Database(join(dir, "bench.sqlite"));
other.exec("PRAGMA synchronous = NORMAL");
const read = reader.query("SELECT v FROM t WHERE id = ?");
const ids = Array.from({ length: 6 }, (_, i) => 1 + i * 33_000);
const writers = { "this connection": reader, "another connection": other };
const ROUNDS = 5_000;
const results: Record<string, number[]> = { "this connection": [], "another connection": [] };
for (let turn = 0; turn < 4; turn++)
  for (const [name, db] of Object.entries(writers)) {
    const write = db.query("INSERT INTO w (v) VALUES ('y')");
    const t0 = performance.now();
    for (let k = 0; k < ROUNDS; k++) {
      write.run();
      for (const id of ids) read.get(id);
    }
    results[name].push(((performance.now() - t0) * 1000) / ROUNDS);
  }
for (const [name, figures] of Object.entries(results))
  console.log(`write by ${name.padEnd(18)} then 6 reads: ${figures.map((f) => f.toFixed(1)).join(" · ")} µs per round`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `ratio another / this: ${(median(results["another connection"]) / median(results["this connection"])).toFixed(2)}x`,
);
console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
reader.close();
other.close();
rmSync(dir, { recursive: true, force: true });
