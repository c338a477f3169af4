// bench:soak's figures: latencies per route and minute, the service's resident memory and open files per sample, and
// the tables printed at the end (per-minute throughput, p99 per route over the run, memory by quarter).
import { readdirSync, readFileSync } from "node:fs";

export const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

export interface Minute {
  done: number;
  byRoute: Map<string, number[]>;
  statuses: Map<number, number>;
  healthMax: number;
  rssMb: number;
  anonMb: number;
  fds: number;
  lagMaxMs: number;
}

export function processFigures(pid: number): { rssMb: number; anonMb: number; fds: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rssMb: kb("VmRSS"), anonMb: kb("RssAnon"), fds: readdirSync(`/proc/${pid}/fd`).length };
}

export class SoakStats {
  readonly minutes: Minute[] = [];
  private current = SoakStats.empty();

  private static empty(): Minute {
    return { done: 0, byRoute: new Map(), statuses: new Map(), healthMax: 0, rssMb: 0, anonMb: 0, fds: 0, lagMaxMs: 0 };
  }

  record(route: string, status: number, ms: number) {
    const m = this.current;
    m.done++;
    const list = m.byRoute.get(route) ?? [];
    list.push(ms);
    m.byRoute.set(route, list);
    m.statuses.set(status, (m.statuses.get(status) ?? 0) + 1);
  }
  health(ms: number) {
    this.current.healthMax = Math.max(this.current.healthMax, ms);
  }
  lag(ms: number) {
    this.current.lagMaxMs = Math.max(this.current.lagMaxMs, ms);
  }

  /** Closes the minute with the service's memory and open files, prints its line, and starts the next. */
  closeMinute(pid: number): Minute {
    const m = this.current;
    Object.assign(m, processFigures(pid));
    this.minutes.push(m);
    this.current = SoakStats.empty();
    const all = [...m.byRoute.values()].flat();
    const fivexx = [...m.statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    console.log(
      `min ${String(this.minutes.length).padStart(3)}  ops ${String(m.done).padStart(6)} (${(m.done / 60).toFixed(0)}/s)  p99 ${pct(all, 99).toFixed(1).padStart(6)} ms  5xx ${fivexx}  /health max ${m.healthMax.toFixed(1)} ms  RSS ${m.rssMb.toFixed(0)} MB (anon ${m.anonMb.toFixed(0)})  fds ${m.fds}  driver lag max ${m.lagMaxMs.toFixed(0)} ms`,
    );
    return m;
  }

  /** The whole run: each route's count, p50, p99 and max; statuses; memory and files by quarter. */
  summary(): { routeP99Max: number; fivexx: number; healthMax: number; firstQ: number; lastQ: number } {
    const routes = new Map<string, number[]>();
    const statuses = new Map<number, number>();
    for (const m of this.minutes) {
      for (const [r, xs] of m.byRoute) routes.set(r, (routes.get(r) ?? []).concat(xs));
      for (const [s, c] of m.statuses) statuses.set(s, (statuses.get(s) ?? 0) + c);
    }
    console.log("route                                   count     p50 ms   p99 ms   max ms");
    let routeP99Max = 0;
    for (const [r, xs] of [...routes].sort()) {
      const p99 = pct(xs, 99);
      routeP99Max = Math.max(routeP99Max, p99);
      console.log(
        `${r.padEnd(36)} ${String(xs.length).padStart(8)} ${pct(xs, 50).toFixed(1).padStart(10)} ${p99.toFixed(1).padStart(8)} ${Math.max(
          ...xs,
        )
          .toFixed(0)
          .padStart(8)}`,
      );
    }
    console.log(`statuses: ${[...statuses].map(([s, c]) => `${s}: ${c}`).join(", ")}`);
    const q = Math.max(1, Math.floor(this.minutes.length / 4));
    const mean = (ms: Minute[], f: (m: Minute) => number) => ms.reduce((n, m) => n + f(m), 0) / ms.length;
    const first = this.minutes.slice(0, q);
    const last = this.minutes.slice(-q);
    const firstQ = mean(first, (m) => m.rssMb);
    const lastQ = mean(last, (m) => m.rssMb);
    console.log(
      `resident memory, mean of the first quarter ${firstQ.toFixed(0)} MB (anon ${mean(first, (m) => m.anonMb).toFixed(0)}), of the last ${lastQ.toFixed(0)} MB (anon ${mean(last, (m) => m.anonMb).toFixed(0)}); open files ${first[0]?.fds} → ${last.at(-1)?.fds}`,
    );
    // A leak keeps its slope; caches filling to their bound (SQLite's page caches) flatten: the slope of the last half.
    const half = this.minutes.slice(Math.floor(this.minutes.length / 2));
    if (half.length > 1)
      console.log(
        `resident memory over the last half: ${((half[half.length - 1].rssMb - half[0].rssMb) / (half.length - 1)).toFixed(2)} MB a minute (${half[0].rssMb.toFixed(0)} → ${half[half.length - 1].rssMb.toFixed(0)} MB)`,
      );
    const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    const healthMax = Math.max(...this.minutes.map((m) => m.healthMax));
    return { routeP99Max, fivexx, healthMax, firstQ, lastQ };
  }
}
