// bench:http — authenticated requests against the bare framework ceiling, in one run.
// Target (issue 2): an authenticated tenant route reaches ≥ 30% of the bare route's requests/s.
import { readFileSync } from "node:fs";
import { load, printTable, startChild } from "./support/load";

/** CPU time a child process has used, in µs (user + system, all its threads; /proc counts in 10 ms ticks). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const bare = await startChild<{ base: string }>("bench/support/bare-hono.ts");
const svc = await startChild<{ base: string; token: string }>("bench/support/platform-server.ts");
try {
  const auth = { authorization: `Bearer ${svc.info.token}` };
  await load("warm-up", `${svc.info.base}/api/auth/me`, { headers: auth, duration: 2 });
  const rows = [
    await load("bare Hono on Bun GET /bare", `${bare.info.base}/bare`),
    await load("GET /api/auth/me (bearer)", `${svc.info.base}/api/auth/me`, { headers: auth }),
    await load("GET /api/a/api-keys (tenant route, Admin)", `${svc.info.base}/api/a/api-keys`, { headers: auth }),
  ];
  printTable(rows);
  const [b, me, tenant] = rows;
  console.log(`ratio /auth/me to bare: ${((me.rps / b.rps) * 100).toFixed(1)}%`);
  console.log(`ratio tenant route to bare: ${((tenant.rps / b.rps) * 100).toFixed(1)}%  (target ≥ 30%)`);
} finally {
  bare.proc.kill();
  svc.proc.kill();
}

// Logging and metrics on against the same build with them off, in the same run, the two measured in turns so that
// the other load of a shared machine weighs on both alike (target, issue 17: on ≥ 90% of off).
const off = await startChild<{ base: string; token: string }>("bench/support/platform-server.ts", {
  BENCH_OBSERVABILITY: "off",
});
const on = await startChild<{ base: string; token: string }>("bench/support/platform-server.ts", {
  BENCH_OBSERVABILITY: "on",
});
try {
  // Besides requests/s (which the load generator's share of the two cores moves), the server's CPU time per request:
  // the cost of logs and metrics itself, steadier on a shared machine.
  const cpu = { on: { us: 0, req: 0 }, off: { us: 0, req: 0 } };
  const run = async (label: string, child: typeof on) => {
    const headers = { authorization: `Bearer ${child.info.token}` };
    const before = cpuMicros(child.proc.pid!);
    const r = await load(`GET /api/a/api-keys, logs + metrics ${label}`, `${child.info.base}/api/a/api-keys`, {
      headers,
      duration: 5,
    });
    const side = label === "on" ? cpu.on : label === "off" ? cpu.off : null;
    if (side) {
      side.us += cpuMicros(child.proc.pid!) - before;
      side.req += r.rps * 5;
    }
    return r;
  };
  await run("off (warm-up)", off);
  await run("on (warm-up)", on);
  const rounds: Awaited<ReturnType<typeof run>>[] = [];
  for (let i = 0; i < 3; i++) rounds.push(await run("off", off), await run("on", on));
  printTable(rounds);
  const sum = (label: string) => rounds.filter((r) => r.name.endsWith(label)).reduce((n, r) => n + r.rps, 0);
  console.log(`ratio logs+metrics on to off: ${((sum(" on") / sum(" off")) * 100).toFixed(1)}%  (target ≥ 90%)`);
  const per = (s: { us: number; req: number }) => s.us / s.req;
  console.log(
    `server CPU per request: off ${per(cpu.off).toFixed(1)} µs, on ${per(cpu.on).toFixed(1)} µs; ` +
      `on costs ${(per(cpu.on) - per(cpu.off)).toFixed(1)} µs more (ratio by CPU ${((per(cpu.off) / per(cpu.on)) * 100).toFixed(1)}%)`,
  );
  console.log(`load average: ${readFileSync("/proc/loadavg", "utf8").trim()}`);
} finally {
  off.proc.kill();
  on.proc.kill();
}
