import { describe, expect, test } from "bun:test";
import { cleanupSettingsOf, inWindow } from "./history-cleanup";

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
