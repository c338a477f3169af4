import { ConflictError, UnprocessableError } from "../errors";
import type { PlanItemModel } from "../model/cmmn";
import { checkCompletion } from "./completion";
import { behaviourOf } from "./elements";
import { holds, scopeOf } from "./scope";
import { indexOf } from "./model-index";
import { orphanedListeners, recordEvent, satisfiedCriterion } from "./sentries";
import type { CaseSession } from "./session";
import {
  type Actor,
  type CaseDefinition,
  ENDED,
  type LoadedCase,
  type PlanItemInstance,
  type PlanItemState,
} from "./state";
import { createCase, type StartCaseInput } from "./start";
import { scheduleListener } from "./timers";

const MAX_STEPS = 10_000;
const ENTRY_LISTENING: ReadonlySet<PlanItemState> = new Set(["AVAILABLE", "WAITING_FOR_REPETITION"]);

/** Drives one case: lifecycle transitions, sentry evaluation and stage completion until the case rests. */
export class CaseRun {
  private readonly queue: Array<{ item: PlanItemInstance; event: string }> = [];
  /** items to check for satisfied criteria at the next settle step: created, or their sentry memory changed */
  private readonly pending = new Set<PlanItemInstance>();
  private rootItem: PlanItemInstance | undefined;
  constructor(
    readonly s: CaseSession,
    readonly lc: LoadedCase,
  ) {}

  get model() {
    return this.lc.definition.model;
  }
  pm(pi: PlanItemInstance): PlanItemModel {
    return this.model.planItems[pi.elementId];
  }
  living(pi: PlanItemInstance): boolean {
    return !ENDED.has(pi.state);
  }
  children(stageId: string | null): PlanItemInstance[] {
    return this.lc.items.filter((i) => i.stageInstanceId === stageId && i.type !== "planModel");
  }
  get root(): PlanItemInstance {
    return (this.rootItem ??= this.s.itemsOf(this.lc, this.model.planModelId).find((i) => i.type === "planModel")!);
  }

  transition(pi: PlanItemInstance, to: PlanItemState, event: string, actor?: Actor): void {
    pi.state = to;
    pi.data.lastEvent = event;
    if (to === "ACTIVE") pi.startedAt = this.s.now;
    if (ENDED.has(to)) {
      pi.endedAt = this.s.now;
      if (actor) {
        pi.endedBy = actor.userId;
        pi.channel = actor.channel;
      }
    }
    this.s.touch(this.lc, pi);
    this.queue.push({ item: pi, event });
  }

  /** Creates the first instances of a stage's (or the plan model's) children and lets each react to being available. */
  async createChildren(stageId: string | null, ids: string[]): Promise<void> {
    const created = ids.map((id) => this.create(this.model.planItems[id], stageId, 1, "AVAILABLE"));
    for (const pi of created) await this.onAvailable(pi);
  }

  create(pm: PlanItemModel, stageId: string | null, counter: number, state: PlanItemState): PlanItemInstance {
    const pi = this.s.addItem(this.lc, {
      stageInstanceId: stageId,
      elementId: pm.id,
      definitionRef: pm.definitionRef,
      name: pm.name,
      type: pm.type,
      state,
      createdAt: this.s.now,
      startedAt: null,
      endedAt: null,
      endedBy: null,
      channel: null,
      data: { memory: {}, counter },
    });
    if (pm.entryCriteria.length || pm.exitCriteria.length) this.pending.add(pi);
    return pi;
  }

  async onAvailable(pi: PlanItemInstance): Promise<void> {
    const pm = this.pm(pi);
    if (pm.type === "userEventListener") return;
    if (pm.type === "timerEventListener") {
      if (!pm.timer?.startTrigger) scheduleListener(this, pi, pm);
      return;
    }
    if (!pm.entryCriteria.length) await this.activateOrEnable(pi);
  }

  async activateOrEnable(pi: PlanItemInstance): Promise<void> {
    const pm = this.pm(pi);
    if (pm.manualActivation && holds(pm.manualActivation.condition, scopeOf(this.lc, pi, pm)))
      this.transition(pi, "ENABLED", "enable");
    else await this.start(pi, "start");
  }

  async start(pi: PlanItemInstance, event: "start" | "manualStart"): Promise<void> {
    this.transition(pi, "ACTIVE", event);
    await behaviourOf(pi.type).start(this, pi, this.pm(pi));
  }

  /** Active (or available, for listeners) → completed; repeats a criterion-less repeatable item. */
  async complete(pi: PlanItemInstance, actor?: Actor): Promise<void> {
    const pm = this.pm(pi);
    const occurs = pm.type === "milestone" || pm.type === "userEventListener" || pm.type === "timerEventListener";
    this.transition(pi, "COMPLETED", occurs ? "occur" : "complete", actor);
    if (
      pm.repetition &&
      !pm.entryCriteria.length &&
      pm.type !== "timerEventListener" &&
      this.containerLiving(pi) &&
      holds(pm.repetition.condition, scopeOf(this.lc, pi, pm))
    ) {
      await this.onAvailable(this.create(pm, pi.stageInstanceId, pi.data.counter + 1, "AVAILABLE"));
    }
  }

  containerLiving(pi: PlanItemInstance): boolean {
    if (pi.stageInstanceId === null) return this.lc.instance.state === "ACTIVE";
    const st = this.s.item(this.lc, pi.stageInstanceId);
    return !!st && st.state === "ACTIVE";
  }

  /** Ends an item and, for a stage, everything still living inside it (children first). */
  terminate(pi: PlanItemInstance, event: string, actor?: Actor): void {
    if (!this.living(pi)) return;
    if (pi.type === "stage") for (const c of this.children(pi.id)) this.terminate(c, event === "exit" ? "exit" : event);
    behaviourOf(pi.type).end?.(this, pi);
    this.transition(pi, "TERMINATED", event, actor);
  }

  async onEntrySatisfied(pi: PlanItemInstance): Promise<void> {
    const pm = this.pm(pi);
    pi.data.memory = {};
    if (pm.repetition && holds(pm.repetition.condition, scopeOf(this.lc, pi, pm)))
      this.create(pm, pi.stageInstanceId, pi.data.counter + 1, "WAITING_FOR_REPETITION");
    if (pm.type === "timerEventListener") {
      scheduleListener(this, pi, pm);
      return;
    }
    if (pm.type === "userEventListener") return;
    await this.activateOrEnable(pi);
  }

  /** The case is over: remaining items end with it, a parent case task learns about it. */
  endCase(state: "COMPLETED" | "TERMINATED", reason: string, actor?: Actor): void {
    for (const c of this.children(null))
      if (this.living(c)) this.terminate(c, state === "COMPLETED" ? "exit" : reason === "exit" ? "exit" : "terminate");
    const root = this.root;
    if (this.living(root)) this.transition(root, state, state === "COMPLETED" ? "complete" : reason, actor);
    const inst = this.lc.instance;
    inst.state = state;
    inst.endTime = this.s.now;
    inst.endReason = reason;
    this.queue.length = 0;
    if (inst.parentCaseId) this.s.endedChildren.push(inst.id);
  }

  /**
   * Runs until nothing moves: record events in sentry memory, fire satisfied criteria, drop orphaned listeners, complete
   * stages. A criterion can only become satisfied through a new on-part in its memory, a new item, or an if-part (or an
   * on-part-less sentry), so each step checks just those items, in creation order, not every item of the case.
   */
  async settle(): Promise<void> {
    const always = indexOf(this.model).alwaysCheck;
    for (let step = 0; this.lc.instance.state === "ACTIVE"; step++) {
      if (step > MAX_STEPS)
        throw new UnprocessableError(
          `Case ${this.lc.instance.id} does not come to rest (a repetition or sentry loops)`,
        );
      while (this.queue.length) recordEvent(this, this.queue.shift()!, this.pending);
      let moved = false;
      if (this.model.exitCriteria.some((cr) => satisfiedCriterion(this, this.root, cr))) {
        this.endCase("TERMINATED", "exit");
        return;
      }
      const check = this.pending;
      for (const el of always) for (const pi of this.s.itemsOf(this.lc, el)) check.add(pi);
      const candidates = [...check].sort((a, b) => a.seq - b.seq);
      check.clear();
      for (const pi of candidates) {
        if (!this.living(pi) || pi.type === "planModel") continue;
        const pm = this.pm(pi);
        if (pm.exitCriteria.some((cr) => satisfiedCriterion(this, pi, cr))) {
          this.terminate(pi, "exit");
          moved = true;
          continue;
        }
        if (
          ENTRY_LISTENING.has(pi.state) &&
          this.containerLiving(pi) &&
          pm.entryCriteria.some((cr) => satisfiedCriterion(this, pi, cr))
        ) {
          await this.onEntrySatisfied(pi);
          moved = true;
        }
        if (this.lc.instance.state !== "ACTIVE") return;
      }
      if (moved || this.queue.length || this.pending.size) continue;
      const orphans = orphanedListeners(this);
      if (orphans.length) {
        for (const o of orphans) this.terminate(o, "exit");
        continue;
      }
      if (await this.completeStages()) continue;
      break;
    }
    // "onEvent" sentries only combine events of one command: what they saw is forgotten once the case rests.
    this.forgetOnEventParts();
  }

  private forgetOnEventParts(): void {
    if (!indexOf(this.model).hasOnEvent) return;
    for (const pi of this.lc.items) {
      if (!this.living(pi)) continue;
      for (const crId of Object.keys(pi.data.memory)) {
        const pm = pi.type === "planModel" ? null : this.pm(pi);
        const cr = [...(pm ? [...pm.entryCriteria, ...pm.exitCriteria] : this.model.exitCriteria)].find(
          (c) => c.id === crId,
        );
        if (cr && this.model.sentries[cr.sentryId]?.triggerMode === "onEvent") {
          delete pi.data.memory[crId];
          this.s.touch(this.lc, pi);
        }
      }
    }
  }

  /** Completes the deepest stage that should complete, or the case; true when something moved. */
  private async completeStages(): Promise<boolean> {
    const stages = this.lc.items
      .filter((i) => i.type === "stage" && i.state === "ACTIVE")
      .sort((a, b) => b.seq - a.seq);
    for (const st of stages) {
      const c = checkCompletion(this.lc, this.children(st.id), !!this.pm(st).autoComplete);
      if (c.shouldComplete) {
        this.closeContainer(st.id);
        await this.complete(st);
        return true;
      }
    }
    const c = checkCompletion(this.lc, this.children(null), this.model.autoComplete);
    if (c.shouldComplete) {
      this.endCase("COMPLETED", "completed");
      return true;
    }
    return false;
  }

  /** Ends the optional work still offered in a container that completes. */
  closeContainer(stageId: string | null): void {
    for (const c of this.children(stageId)) if (this.living(c)) this.terminate(c, "exit");
  }

  /**
   * A Manager's forced completion of a stage (Flowable's forced stage completion): whatever still lives inside it ends
   * with it, active work terminated and the optional steps still offered exited, and the stage completes.
   */
  async completeStage(st: PlanItemInstance, actor: Actor): Promise<void> {
    if (st.type !== "stage") throw new ConflictError(`Plan item ${st.id} is a ${st.type}, not a stage`);
    if (st.state !== "ACTIVE") throw new ConflictError(`Stage ${st.id} is ${st.state.toLowerCase()}, not active`);
    for (const c of this.children(st.id))
      if (this.living(c)) this.terminate(c, c.state === "ACTIVE" ? "terminate" : "exit", actor);
    await this.complete(st, actor);
  }

  /** Starts a child case in this command (a case task). */
  startChildCase(def: CaseDefinition, input: StartCaseInput): Promise<LoadedCase> {
    return startCaseIn(this.s, def, input);
  }
  /** A run of another case of the same command (a child case ended or terminated by its case task). */
  forCase(lc: LoadedCase): CaseRun {
    return new CaseRun(this.s, lc);
  }
}

/** Creates a case, its plan model row and the first plan items, and runs it until it rests. */
export async function startCaseIn(s: CaseSession, def: CaseDefinition, input: StartCaseInput): Promise<LoadedCase> {
  const lc = createCase(s, def, input);
  const run = new CaseRun(s, lc);
  await run.createChildren(null, def.model.children);
  await run.settle();
  return lc;
}
