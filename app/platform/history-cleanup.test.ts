import { describe, expect, test } from "bun:test";
import { BATCH_BUDGET_MS, cleanupSettingsOf, inWindow, nextBatchSize } from "./history-cleanup";

const at = (hhmm: string) => Date.parse(`2026-01-05T${hhmm}:00Z`);

describe("history cleanup window", () => {
  test("parses HH:MM-HH:MM in UTC, wraps past midnight, off disables", () => {
    const night = cleanupSettingsOf({ HISTORY_CLEANUP_WINDOW: "22:30-04:00" }).window;
    expect([at("23:00"), at("03:59"), at("04:00"), at("12:00")].map((t) => inWindow(night, t))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const def = cleanupSettingsOf({});
    expect(def).toEqual({ window: { from: 60, to: 300 }, batchSize: 50 });
    expect(inWindow(cleanupSettingsOf({ HISTORY_CLEANUP_WINDOW: "00:00-24:00" }).window, at("13:37"))).toBe(true);
    expect(inWindow(cleanupSettingsOf({ HISTORY_CLEANUP_WINDOW: "off" }).window, at("02:00"))).toBe(false);
  });

  test("refuses malformed windows and batch sizes at start", () => {
    for (const w of ["1-5", "25:00-01:00", "01:60-02:00", "nightly", "01:00"])
      expect(() => cleanupSettingsOf({ HISTORY_CLEANUP_WINDOW: w })).toThrow(/HISTORY_CLEANUP_WINDOW/);
    for (const b of ["0", "-1", "2.5", "x", "10001"])
      expect(() => cleanupSettingsOf({ HISTORY_CLEANUP_BATCH_SIZE: b })).toThrow(/HISTORY_CLEANUP_BATCH_SIZE/);
  });
});

describe("history cleanup batch size", () => {
  test("halves past the time budget, grows back by a quarter under half of it, within 1 and the configured size", () => {
    expect(nextBatchSize(50, BATCH_BUDGET_MS * 3, 50)).toBe(25);
    expect(nextBatchSize(1, BATCH_BUDGET_MS * 10, 50)).toBe(1);
    expect(nextBatchSize(25, BATCH_BUDGET_MS * 0.75, 50)).toBe(25);
    expect(nextBatchSize(25, 1, 50)).toBe(32);
    expect(nextBatchSize(48, 1, 50)).toBe(50);
    // A run of slow batches settles where a batch fits the budget (here 1 ms per instance: 10 or fewer).
    let size = 50;
    for (let i = 0; i < 20; i++) size = nextBatchSize(size, size * 1, 50);
    expect(size).toBeLessThanOrEqual(BATCH_BUDGET_MS);
    expect(size).toBeGreaterThanOrEqual(BATCH_BUDGET_MS / 4);
  });
});
