import { UnprocessableError } from "../errors";
import { compileExpression, compileValue, isTrue, type VarScope } from "../expressions";
import type { ElementModel, ProcessModel } from "../model/bpmn/types";
import type { EngineDeps, ScriptOutcome } from "./deps";
import type { InstanceSpace, Session } from "./session";
import type { ExecutionRecord } from "./state";

/** The execution tree as one command sees it: navigation, new executions, scoped variables, activity history. */
export class RunTree {
  constructor(
    readonly s: Session,
    readonly deps: EngineDeps,
  ) {}

  get now(): number {
    return this.s.now;
  }

  // ---- tree navigation ----
  space(e: ExecutionRecord): InstanceSpace {
    return this.s.spaceOfExecution(e.id) ?? this.s.require(e.instanceId);
  }
  model(e: ExecutionRecord): ProcessModel {
    return this.s.definition(this.space(e).instance.definitionId).model;
  }
  el(e: ExecutionRecord, id = e.activityId!): ElementModel {
    const el = this.model(e).elements[id];
    if (!el) throw new UnprocessableError(`element '${id}' is not part of the definition`);
    return el;
  }
  parent(e: ExecutionRecord): ExecutionRecord | undefined {
    return e.parentId ? this.space(e).executions.get(e.parentId) : undefined;
  }
  children(e: ExecutionRecord): ExecutionRecord[] {
    const out: ExecutionRecord[] = [];
    for (const c of this.space(e).executions.values()) if (c.parentId === e.id) out.push(c);
    return out;
  }
  alive(e: ExecutionRecord): boolean {
    return this.space(e).executions.has(e.id);
  }
  isMiInner(token: ExecutionRecord, el: ElementModel): boolean {
    const p = this.parent(token);
    return !!p && p.kind === "mi" && p.scopeId === el.id;
  }

  newExecution(
    space: InstanceSpace,
    parentId: string | null,
    kind: ExecutionRecord["kind"],
    scopeId: string | null,
    id = this.deps.newId(),
  ): ExecutionRecord {
    const e: ExecutionRecord = {
      id,
      tenantId: space.instance.tenantId,
      instanceId: space.instance.id,
      parentId,
      kind,
      scopeId,
      activityId: null,
      state: "active",
      data: {},
      createdAt: this.now,
    };
    this.s.putExecution(space, e, "insert");
    return e;
  }
  newToken(parent: ExecutionRecord): ExecutionRecord {
    return this.newExecution(this.space(parent), parent.id, "token", null);
  }
  mark(e: ExecutionRecord): void {
    if (this.alive(e)) this.s.putExecution(this.space(e), e, "update");
  }

  // ---- variables: they live on scopes; lookups climb the tree ----
  getVar(e: ExecutionRecord, name: string): unknown {
    const space = this.space(e);
    for (let c: ExecutionRecord | undefined = e; c; c = c.parentId ? space.executions.get(c.parentId) : undefined) {
      const m = space.vars.get(c.id);
      if (m?.has(name)) return m.get(name);
    }
    return space.vars.get(space.instance.id)?.get(name);
  }
  allVars(e: ExecutionRecord): Record<string, unknown> {
    const space = this.space(e);
    const chain: string[] = [];
    for (let c: ExecutionRecord | undefined = e; c; c = c.parentId ? space.executions.get(c.parentId) : undefined)
      chain.unshift(c.id);
    if (chain[0] !== space.instance.id) chain.unshift(space.instance.id);
    const out: Record<string, unknown> = {};
    for (const id of chain) for (const [k, v] of space.vars.get(id) ?? []) out[k] = v;
    return out;
  }
  /** Sets where the variable already lives, else on the process instance (Flowable's rule). */
  setVar(e: ExecutionRecord, name: string, value: unknown): void {
    const space = this.space(e);
    // What an activity an agent called writes is also its tool result (agent-loop.ts).
    if (e.data.toolCall) {
      (e.data.toolOut ??= {})[name] = value;
      if (this.alive(e)) this.s.putExecution(space, e, "update");
    }
    for (let c: ExecutionRecord | undefined = e; c; c = c.parentId ? space.executions.get(c.parentId) : undefined) {
      if (space.vars.get(c.id)?.has(name)) {
        this.s.setVar(space, c.id, name, value);
        return;
      }
    }
    this.s.setVar(space, space.instance.id, name, value);
  }
  setLocal(e: ExecutionRecord, name: string, value: unknown): void {
    this.s.setVar(this.space(e), e.id, name, value);
  }
  scope(e: ExecutionRecord): VarScope {
    const inst = this.space(e).instance;
    const execution = {
      id: e.id,
      processInstanceId: inst.id,
      processInstanceBusinessKey: inst.businessKey,
      businessKey: inst.businessKey,
      currentActivityId: e.activityId,
      tenantId: inst.tenantId,
      processDefinitionId: inst.definitionId,
    };
    return {
      get: (n) => {
        const v = this.getVar(e, n);
        return v !== undefined ? v : n === "execution" ? execution : n === "businessKey" ? inst.businessKey : undefined;
      },
      all: () => ({ execution, businessKey: inst.businessKey, ...this.allVars(e) }),
    };
  }
  /** FEEL and JUEL conditions; a JavaScript one is evaluated asynchronously (Run.chooseFlows), never here. */
  evalCondition(e: ExecutionRecord, src: string): boolean {
    return isTrue(compileExpression(src)(this.scope(e)));
  }
  /**
   * JavaScript through the sandbox port: the script gets a copy of the variables visible at `e` and its writes are
   * applied here, in order, as `execution.setVariable` would have made them, once it has ended.
   */
  async runJavaScript(e: ExecutionRecord, src: string, what: string): Promise<unknown> {
    const sandbox = this.deps.scripts;
    if (!sandbox)
      throw new UnprocessableError(`JavaScript ${what} at '${e.activityId}': no script sandbox is configured`);
    let outcome: ScriptOutcome;
    try {
      outcome = await sandbox.run(src, { tenantId: e.tenantId, variables: this.allVars(e) });
    } catch (err) {
      throw new UnprocessableError(`JavaScript ${what} at '${e.activityId}' failed: ${(err as Error).message}`);
    }
    for (const [name, value] of outcome.writes) this.setVar(e, name, value);
    return outcome.value;
  }
  evalValue(e: ExecutionRecord, src: string): unknown {
    return compileValue(src)(this.scope(e));
  }

  // ---- history ----
  actStart(token: ExecutionRecord, el: ElementModel, activityType: string = el.type): void {
    const id = this.deps.newId();
    token.data.actId = id;
    this.s.putActivity(
      {
        id,
        tenantId: token.tenantId,
        instanceId: token.instanceId,
        executionId: token.id,
        activityId: el.id,
        activityName: el.name,
        activityType,
        startTime: this.now,
        endTime: null,
        taskId: null,
        who: null,
        channel: null,
        outcome: null,
      },
      "insert",
    );
  }
  actEnd(
    token: ExecutionRecord,
    outcome: "completed" | "cancelled",
    extra: { who?: string | null; channel?: string | null; taskId?: string | null } = {},
  ): void {
    const id = token.data.actId;
    if (!id) return;
    delete token.data.actId;
    const pending = this.s.changes.activities.get(id);
    const base = pending?.row ?? {
      id,
      tenantId: token.tenantId,
      instanceId: token.instanceId,
      executionId: token.id,
      activityId: token.activityId ?? "",
      activityName: "",
      activityType: "",
      startTime: 0,
      endTime: null,
      taskId: null,
      who: null,
      channel: null,
      outcome: null,
    };
    this.s.putActivity(
      {
        ...base,
        endTime: this.now,
        outcome,
        who: extra.who ?? base.who,
        channel: extra.channel ?? base.channel,
        taskId: extra.taskId ?? base.taskId,
      },
      pending ? pending.op : "update",
    );
  }
}
