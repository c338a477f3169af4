import { NotFoundError } from "../errors";
import { everyTime, type Once } from "../once";
import type { CaseEngineDeps } from "./deps";
import type {
  CaseChanges,
  CaseJobRecord,
  CaseDefinition,
  CaseInstanceRecord,
  LoadedCase,
  PlanItemInstance,
  TimerRecord,
} from "./state";

/** Lookups over a case's items (they are only ever added, through `addItem`), so the interpreter does not scan them. */
interface ItemIndex {
  byId: Map<string, PlanItemInstance>;
  byElement: Map<string, PlanItemInstance[]>;
  maxSeq: number;
}

/** One command's working set: the cases it loaded or created and every change to persist. */
export class CaseSession {
  readonly changes: CaseChanges = {
    cases: new Map(),
    tasksCreated: [],
    tasksEnded: [],
    timersCreated: [],
    timersCancelledFor: [],
    jobsCreated: [],
    jobsCancelledFor: [],
    involvements: [],
  };
  /**
   * Agent steps reached in this command run inline (the start of a case); otherwise an agent step becomes a job so
   * no request waits on a model. Either way the model is awaited while the command computes, outside any write.
   */
  inlineAgents = false;
  /** case ids whose end must be reported to a parent case task */
  readonly endedChildren: string[] = [];
  private seq = 0;
  private readonly indexes = new WeakMap<LoadedCase, ItemIndex>();

  constructor(
    readonly deps: CaseEngineDeps,
    readonly tenantId: string,
    readonly now: number,
    /** Work outside the engine (an agent's run) kept across the attempts of the command (engine/once.ts). */
    readonly once: Once = everyTime,
  ) {}

  get(caseId: string): LoadedCase {
    const have = this.changes.cases.get(caseId);
    if (have) return have;
    const loaded = this.deps.loadCase(this.tenantId, caseId);
    if (!loaded) throw new NotFoundError(`Case ${caseId} not found`);
    this.changes.cases.set(caseId, loaded);
    return loaded;
  }

  create(
    def: CaseDefinition,
    init: Omit<
      CaseInstanceRecord,
      | "id"
      | "tenantId"
      | "definitionId"
      | "definitionKey"
      | "version"
      | "state"
      | "startTime"
      | "endTime"
      | "endReason"
      | "revision"
    >,
  ): LoadedCase {
    const instance: CaseInstanceRecord = {
      id: this.deps.newId(),
      tenantId: this.tenantId,
      definitionId: def.id,
      definitionKey: def.key,
      version: def.version,
      state: "ACTIVE",
      startTime: this.now,
      endTime: null,
      endReason: null,
      revision: 0,
      ...init,
    };
    const lc: LoadedCase = {
      instance,
      items: [],
      definition: def,
      isNew: true,
      baseRevision: 0,
      baseState: "ACTIVE",
      newItems: new Set(),
      dirtyItems: new Set(),
    };
    this.changes.cases.set(instance.id, lc);
    if (init.startedBy) this.involve(instance.id, "user", init.startedBy);
    return lc;
  }

  /** Adds a plan item instance; `seq` keeps creation order stable across reloads. */
  addItem(
    lc: LoadedCase,
    item: Omit<PlanItemInstance, "seq" | "tenantId" | "caseInstanceId" | "id">,
  ): PlanItemInstance {
    const ix = this.index(lc);
    const pi: PlanItemInstance = {
      id: this.deps.newId(),
      tenantId: this.tenantId,
      caseInstanceId: lc.instance.id,
      seq: Math.max(ix.maxSeq + 1, ++this.seq),
      ...item,
    };
    lc.items.push(pi);
    lc.newItems.add(pi.id);
    ix.maxSeq = pi.seq;
    ix.byId.set(pi.id, pi);
    const same = ix.byElement.get(pi.elementId);
    if (same) same.push(pi);
    else ix.byElement.set(pi.elementId, [pi]);
    return pi;
  }

  /** The case's item instances of one plan item (element), in creation order. */
  itemsOf(lc: LoadedCase, elementId: string): readonly PlanItemInstance[] {
    return this.index(lc).byElement.get(elementId) ?? [];
  }

  item(lc: LoadedCase, id: string): PlanItemInstance | undefined {
    return this.index(lc).byId.get(id);
  }

  private index(lc: LoadedCase): ItemIndex {
    let ix = this.indexes.get(lc);
    if (!ix) {
      ix = { byId: new Map(), byElement: new Map(), maxSeq: 0 };
      for (const pi of lc.items) {
        ix.byId.set(pi.id, pi);
        const same = ix.byElement.get(pi.elementId);
        if (same) same.push(pi);
        else ix.byElement.set(pi.elementId, [pi]);
        if (pi.seq > ix.maxSeq) ix.maxSeq = pi.seq;
      }
      this.indexes.set(lc, ix);
    }
    return ix;
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

  cancelTimers(pi: PlanItemInstance): void {
    this.changes.timersCreated = this.changes.timersCreated.filter((t) => t.planItemInstanceId !== pi.id);
    this.changes.timersCancelledFor.push({ caseInstanceId: pi.caseInstanceId, planItemInstanceId: pi.id });
  }

  /** Work of `pi` done outside this command: an agent job or a robot's external job. */
  addJob(
    lc: LoadedCase,
    pi: PlanItemInstance,
    kind: CaseJobRecord["kind"],
    data: CaseJobRecord["data"],
  ): CaseJobRecord {
    const job: CaseJobRecord = {
      id: this.deps.newId(),
      tenantId: this.tenantId,
      caseInstanceId: lc.instance.id,
      definitionId: lc.instance.definitionId,
      planItemInstanceId: pi.id,
      elementId: pi.elementId,
      kind,
      data,
      createdAt: this.now,
    };
    this.changes.jobsCreated.push(job);
    return job;
  }

  cancelJobs(pi: PlanItemInstance): void {
    this.changes.jobsCreated = this.changes.jobsCreated.filter((j) => j.planItemInstanceId !== pi.id);
    this.changes.jobsCancelledFor.push({ caseInstanceId: pi.caseInstanceId, planItemInstanceId: pi.id });
  }

  endTask(id: string, state: "COMPLETED" | "CANCELLED", by: string | null, channel: string | null): void {
    this.changes.tasksEnded.push({ id, state, at: this.now, by, channel });
  }
}
