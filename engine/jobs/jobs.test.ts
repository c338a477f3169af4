import { describe, expect, test } from "bun:test";
import { parseRetryCycle } from "./retry-cycle";
import { nextRepeat, scheduleTimer } from "./timers";

const now = Date.UTC(2024, 0, 1, 10, 0, 0);

describe("timers and retry cycles", () => {
  test("a duration timer is due that long after now", () => {
    expect(scheduleTimer("duration", "PT5M", now)).toEqual({ dueAt: now + 300_000 });
  });
  test("a date timer is due at that date", () => {
    expect(scheduleTimer("date", "2024-02-01T00:00:00Z", now)).toEqual({ dueAt: Date.UTC(2024, 1, 1) });
  });
  test("an ISO cycle repeats the given number of times", () => {
    const s = scheduleTimer("cycle", "R2/PT1H", now);
    expect(s).toEqual({ dueAt: now + 3_600_000, repeat: { left: 1, spec: "R2/PT1H" } });
    const n = nextRepeat((s as { repeat: { left: number; spec: string } }).repeat, now + 3_600_000)!;
    expect(n.dueAt).toBe(now + 7_200_000);
    expect(nextRepeat(n.repeat!, n.dueAt)).toBeNull();
  });
  test("a cron cycle fires at the next matching second", () => {
    const s = scheduleTimer("cycle", "0 0/5 * * * ?", now + 1000) as { dueAt: number };
    expect(s.dueAt).toBe(now + 300_000);
  });
  test("refuses an unparsable timer with a message instead of throwing", () => {
    expect(scheduleTimer("duration", "five minutes", now)).toHaveProperty("error");
  });
  test("a retry cycle gives the attempts and the delay", () => {
    const p = parseRetryCycle("R5/PT10M");
    expect(p.attempts).toBe(5);
    expect(p.delayMs(now)).toBe(600_000);
    expect(parseRetryCycle(undefined).attempts).toBe(3);
  });
});
