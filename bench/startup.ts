// Time from spawning the service to the first 200 of GET /health, warm install: `npm start` against `bun` alone.
// Usage: bun bench/startup.ts   (RUNS=5 by default; each run on a fresh temporary data folder and port)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const RUNS = Number(process.env.RUNS || 5);

async function timeToHealth(cmd: string[], port: number): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), "pms-startup-"));
  const started = performance.now();
  const child = Bun.spawn(cmd, {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "silent", JWT_SECRET: "x".repeat(40) },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 20_000) throw new Error(`${cmd.join(" ")}: no /health within 20 s`);
      await Bun.sleep(5);
    }
  } finally {
    child.kill("SIGTERM");
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const npm = process.env.NPM || "npm";
const rows: [string, number[]][] = [
  ["npm start", []],
  ["bun app/http/serve.ts", []],
];
let port = 18_400 + Math.floor(Math.random() * 500);
for (let i = 0; i < RUNS; i++) {
  rows[0]?.[1].push(await timeToHealth([npm, "start", "--silent"], port++));
  rows[1]?.[1].push(await timeToHealth([process.execPath, "app/http/serve.ts"], port++));
}
for (const [name, xs] of rows) {
  console.log(
    `${name.padEnd(24)} median ${median(xs).toFixed(0)} ms  (runs: ${xs.map((x) => x.toFixed(0)).join(", ")})`,
  );
}
const [npmRow, bunRow] = rows;
if (npmRow && bunRow) console.log(`npm start / bun alone: ${(median(npmRow[1]) / median(bunRow[1])).toFixed(2)}x`);
