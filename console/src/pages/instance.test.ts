import { describe, expect, test } from "bun:test";
import { stepMarkers } from "./instance";
import type { Activity } from "./instance-history";

const visit = (activityId: string, ended: boolean, outcome: string | null = ended ? "completed" : null): Activity => ({
  id: `${activityId}-${Math.random()}`,
  activityId,
  activityName: null,
  activityType: "userTask",
  startTime: "2026-01-01T00:00:00Z",
  endTime: ended ? "2026-01-01T00:01:00Z" : null,
  durationMs: ended ? 60_000 : null,
  who: null,
  channel: null,
  taskId: null,
  outcome,
});
const byId = (m: { elementId: string; className: string }[]) =>
  Object.fromEntries(m.map((x) => [x.elementId, x.className]));

describe("step states of the instance diagram", () => {
  test("completed visits, active steps and failed jobs; failed over active over completed", () => {
    const history = [visit("start", true), visit("review", true), visit("review", false), visit("post", false)];
    expect(byId(stepMarkers(history, ["review", "post"], ["post"]))).toEqual({
      start: "step-done",
      review: "step-active",
      post: "step-failed",
    });
  });
  test("a cancelled visit is not completed; a step never reached has no marker", () => {
    expect(stepMarkers([visit("a", true, "cancelled")], [], [])).toEqual([]);
    expect(stepMarkers([], [], [])).toEqual([]);
  });
});
