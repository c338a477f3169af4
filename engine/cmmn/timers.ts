import { BadRequestError } from "../errors";
import { scheduleTimer } from "../jobs/timers";
import type { PlanItemModel } from "../model/cmmn";
import type { CaseRun } from "./run";
import { scopeOf, valueOf } from "./scope";
import type { PlanItemInstance } from "./state";

/** ISO 8601 duration (`PT1H`), repeating interval (`R3/PT1H`), date, or a cron line: picks the kind from the text. */
export function kindOfTimer(text: string): "date" | "duration" | "cycle" {
  const t = text.trim();
  if (t.startsWith("R")) return "cycle";
  if (t.startsWith("P") || t.startsWith("-P")) return "duration";
  if (!Number.isNaN(Date.parse(t))) return "date";
  return "cycle";
}

/** Computes the listener's due date (through the shared timer computation) and records the timer. */
export function scheduleListener(run: CaseRun, pi: PlanItemInstance, pm: PlanItemModel): void {
  if (run.s.changes.timersCreated.some((t) => t.planItemInstanceId === pi.id)) return;
  const text = String(valueOf(pm.timer!.expression, scopeOf(run.lc, pi, pm)) ?? "").trim();
  const sch = scheduleTimer(kindOfTimer(text), text, run.s.now);
  if ("error" in sch) throw new BadRequestError(`Timer event listener '${pm.id}': ${sch.error}`);
  run.s.scheduleTimer({
    caseInstanceId: run.lc.instance.id,
    planItemInstanceId: pi.id,
    elementId: pi.elementId,
    dueAt: sch.dueAt,
    repeat: sch.repeat ?? null,
  });
}
