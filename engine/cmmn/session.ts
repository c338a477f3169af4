import { NotFoundError } from "../errors";
import type { CaseEngineDeps } from "./deps";
import type { CaseChanges, CaseDefinition, CaseInstanceRecord, LoadedCase, PlanItemInstance, TimerRecord } from "./state";

/** One command's working set: the cases it loaded or created and every change to persist. */
export class CaseSession {
  readonly changes: CaseChanges = { cases: new Map(), tasksCreated: [], tasksEnded: [], timersCreated: [], timersCancelledFor: [], involvements: [] };
  /** case ids whose end must be reported to a parent case task */
  readonly endedChildren: string[] = [];
  private seq = 0;

  constructor(readonly deps: CaseEngineDeps, readonly tenantId: string, readonly now: number) {}

  get(caseId: string): LoadedCase {
    const have = this.changes.cases.get(caseId);
    if (have) return have;
    const loaded = this.deps.loadCase(this.tenantId, caseId);
    if (!loaded) throw new NotFoundError(`Case ${caseId} not found`);
    this.changes.cases.set(caseId, loaded);
    return loaded;
  }

  create(def: CaseDefinition, init: Omit<CaseInstanceRecord, "id" | "tenantId" | "definitionId" | "definitionKey" | "version" | "state" | "startTime" | "endTime" | "endReason" | "revision">): LoadedCase {
    const instance: CaseInstanceRecord = {
      id: this.deps.newId(), tenantId: this.tenantId, definitionId: def.id, definitionKey: def.key, version: def.version, state: "ACTIVE",
      startTime: this.now, endTime: null, endReason: null, revision: 0, ...init,
    };
    const lc: LoadedCase = { instance, items: [], definition: def, isNew: true, baseRevision: 0, newItems: new Set(), dirtyItems: new Set() };
    this.changes.cases.set(instance.id, lc);
    if (init.startedBy) this.involve(instance.id, "user", init.startedBy);
    return lc;
  }

  /** Adds a plan item instance; `seq` keeps creation order stable across reloads. */
  addItem(lc: LoadedCase, item: Omit<PlanItemInstance, "seq" | "tenantId" | "caseInstanceId" | "id">): PlanItemInstance {
    const maxSeq = lc.items.reduce((m, i) => Math.max(m, i.seq), 0);
    const pi: PlanItemInstance = { id: this.deps.newId(), tenantId: this.tenantId, caseInstanceId: lc.instance.id, seq: Math.max(maxSeq + 1, ++this.seq), ...item };
    lc.items.push(pi);
    lc.newItems.add(pi.id);
    return pi;
  }

  touch(lc: LoadedCase, pi: PlanItemInstance): void {
    if (!lc.newItems.has(pi.id)) lc.dirtyItems.add(pi.id);
  }

  involve(caseId: string, kind: "user" | "group", principal: string): void {
    this.changes.involvements.push({ tenantId: this.tenantId, instanceId: caseId, kind, principal });
  }

  scheduleTimer(t: Omit<TimerRecord, "id" | "tenantId" | "createdAt">): void {
    this.changes.timersCreated.push({ id: this.deps.newId(), tenantId: this.tenantId, createdAt: this.now, ...t });
  }

  cancelTimers(planItemInstanceId: string): void {
    this.changes.timersCreated = this.changes.timersCreated.filter((t) => t.planItemInstanceId !== planItemInstanceId);
    this.changes.timersCancelledFor.push(planItemInstanceId);
  }

  endTask(id: string, state: "COMPLETED" | "CANCELLED", by: string | null, channel: string | null): void {
    this.changes.tasksEnded.push({ id, state, at: this.now, by, channel });
  }
}
