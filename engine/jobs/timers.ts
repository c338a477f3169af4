import { Cron } from "croner";
import { addDuration, parseDuration } from "./duration";

/** A timer's schedule once its expression is resolved: the first due date and how to find the next. */
export interface TimerSchedule {
  dueAt: number;
  /** remaining repetitions after this one (-1 = unbounded), only for cycles */
  repeat?: { left: number; spec: string };
}

function parseDate(text: string): number | null {
  const t = Date.parse(text.trim());
  return Number.isNaN(t) ? null : t;
}

/** Next firing of a cycle spec (`R3/PT1H`, `R/2024-01-01T00:00Z/P1D`, or a cron line) after `from`. */
function nextOfCycle(spec: string, from: number): number | null {
  const s = spec.trim();
  if (s.startsWith("R")) {
    const parts = s.split("/");
    const durText = parts.find((p) => p.startsWith("P"));
    const d = durText ? parseDuration(durText) : null;
    if (!d) return null;
    return addDuration(from, d);
  }
  try {
    const next = new Cron(quartzToCroner(s), { paused: true, timezone: "Etc/UTC" }).nextRun(new Date(from));
    return next ? next.getTime() : null;
  } catch {
    return null;
  }
}

const FIELD_MAX = [59, 59, 23, 31, 12, 7];

/** Quartz lines (Flowable/Camunda) write `0/5` for "from 0 every 5" and may add a year: croner wants `0-59/5` and no year. */
function quartzToCroner(line: string): string {
  const fields = line.split(/\s+/);
  if (fields.length === 7) fields.pop();
  const offset = fields.length === 5 ? 1 : 0;
  return fields
    .map((f, i) => f.replace(/^(\d+)\/(\d+)$/, (_m, a, b) => `${a}-${FIELD_MAX[i + offset]}/${b}`))
    .join(" ");
}

function cycleRepeats(spec: string): number {
  const m = /^R(\d*)\//.exec(spec.trim());
  if (!m) return -1;
  return m[1] === "" ? -1 : Number(m[1]);
}

/** Computes the first due date of a timer; returns an error message instead of throwing on bad data. */
export function scheduleTimer(
  type: "date" | "duration" | "cycle",
  value: string,
  now: number,
): TimerSchedule | { error: string } {
  const v = value.trim();
  if (type === "date") {
    const t = parseDate(v);
    return t === null ? { error: `timeDate '${v}' is not an ISO 8601 date` } : { dueAt: t };
  }
  if (type === "duration") {
    const d = parseDuration(v);
    if (d) return { dueAt: addDuration(now, d) };
    const t = parseDate(v);
    return t === null ? { error: `timeDuration '${v}' is not an ISO 8601 duration` } : { dueAt: t };
  }
  const parts = v.split("/");
  // R/<start>/<duration>: the first firing is the start date itself.
  if (v.startsWith("R") && parts.length === 3) {
    const start = parseDate(parts[1]);
    if (start === null || !parseDuration(parts[2]))
      return { error: `timeCycle '${v}' is not a valid ISO 8601 repeating interval` };
    let due = start;
    while (due < now - 1) {
      const n = nextOfCycle(v, due);
      if (n === null || n <= due) break;
      due = n;
    }
    const total = cycleRepeats(v);
    return { dueAt: due, repeat: { left: total < 0 ? -1 : total - 1, spec: v } };
  }
  const next = nextOfCycle(v, now);
  if (next === null)
    return { error: `timeCycle '${v}' is neither an ISO 8601 repeating interval nor a cron expression` };
  const total = cycleRepeats(v);
  return { dueAt: next, repeat: { left: total < 0 ? -1 : total - 1, spec: v } };
}

/** The following firing of a repeating timer, or null when its repetitions are used up. */
export function nextRepeat(repeat: { left: number; spec: string }, firedAt: number): TimerSchedule | null {
  if (repeat.left === 0) return null;
  const next = nextOfCycle(repeat.spec, firedAt);
  if (next === null) return null;
  return { dueAt: next, repeat: { left: repeat.left < 0 ? -1 : repeat.left - 1, spec: repeat.spec } };
}
