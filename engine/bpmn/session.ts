import { NotFoundError } from "../errors";
import { everyTime, type Once } from "../once";
import type {
  ActivityRecord,
  DefinitionRecord,
  ExecutionRecord,
  InstanceRecord,
  Involvement,
  JobRecord,
  SubscriptionRecord,
  TaskRecord,
} from "./state";
import type { EngineStore } from "./store";

export type Op = "insert" | "update" | "delete";
export interface Change<T> {
  op: Op;
  row: T;
}

/** The rows one command wrote: the store applies them in one transaction, checking `baseRevisions`. */
export interface ChangeSet {
  instances: Map<string, Change<InstanceRecord>>;
  executions: Map<string, Change<ExecutionRecord>>;
  variables: Map<
    string,
    { op: "upsert" | "delete"; tenantId: string; instanceId: string; executionId: string; name: string; value: unknown }
  >;
  tasks: Map<string, Change<TaskRecord>>;
  jobs: Map<string, Change<JobRecord>>;
  subscriptions: Map<string, Change<SubscriptionRecord>>;
  activities: Map<string, Change<ActivityRecord>>;
  involvements: Involvement[];
  /** revision each pre-existing instance had when read */
  baseRevisions: Map<string, number>;
  /** state each pre-existing instance had when read (the store keeps running/ended totals) */
  baseStates: Map<string, InstanceRecord["state"]>;
  createdTasks: TaskRecord[];
}

/** In-memory state of one instance inside a command. */
export interface InstanceSpace {
  instance: InstanceRecord;
  executions: Map<string, ExecutionRecord>;
  vars: Map<string, Map<string, unknown>>;
  tasks: Map<string, TaskRecord>;
  jobs: Map<string, JobRecord>;
  subs: Map<string, SubscriptionRecord>;
  varsChanged: boolean;
}

function track<T extends { id: string }>(m: Map<string, Change<T>>, op: Op, row: T): void {
  const prev = m.get(row.id);
  if (!prev) {
    m.set(row.id, { op, row });
    return;
  }
  if (prev.op === "insert") {
    if (op === "delete") m.delete(row.id);
    else m.set(row.id, { op: "insert", row });
    return;
  }
  m.set(row.id, { op: op === "insert" ? "update" : op, row });
}

/** Unit of work of one command: loads instances once, records every change for the store. */
export class Session {
  readonly spaces = new Map<string, InstanceSpace>();
  readonly changes: ChangeSet = {
    instances: new Map(),
    executions: new Map(),
    variables: new Map(),
    tasks: new Map(),
    jobs: new Map(),
    subscriptions: new Map(),
    activities: new Map(),
    involvements: [],
    baseRevisions: new Map(),
    baseStates: new Map(),
    createdTasks: [],
  };
  /**
   * Agent steps reached in this command run inline (the start of an instance: its failure refuses the start);
   * otherwise an agent step is deferred to an async job so no request waits on a model.
   */
  inlineAgents = false;
  private defs = new Map<string, DefinitionRecord>();
  private execIndex = new Map<string, InstanceSpace>();

  constructor(
    readonly store: EngineStore,
    readonly tenantId: string,
    readonly now: number,
    /** Work outside the engine (a delegate's model run) kept across the attempts of the command (engine/once.ts). */
    readonly once: Once = everyTime,
  ) {}

  definition(id: string): DefinitionRecord {
    let d = this.defs.get(id);
    if (!d) {
      d = this.store.loadDefinition(id) ?? undefined;
      if (!d) throw new NotFoundError(`definition ${id} not found`);
      this.defs.set(id, d);
    }
    return d;
  }

  /** Loads (once) an instance of this tenant; null when absent. */
  load(instanceId: string): InstanceSpace | null {
    const have = this.spaces.get(instanceId);
    if (have) return have;
    const li = this.store.loadInstance(this.tenantId, instanceId);
    if (!li) return null;
    const space: InstanceSpace = {
      instance: li.instance,
      executions: new Map(),
      vars: new Map(),
      tasks: new Map(),
      jobs: new Map(),
      subs: new Map(),
      varsChanged: false,
    };
    for (const e of li.executions) {
      space.executions.set(e.id, e);
      this.execIndex.set(e.id, space);
    }
    for (const v of li.variables) {
      let m = space.vars.get(v.executionId);
      if (!m) space.vars.set(v.executionId, (m = new Map()));
      m.set(v.name, v.value);
    }
    for (const t of li.tasks) space.tasks.set(t.id, t);
    for (const j of li.jobs) space.jobs.set(j.id, j);
    for (const s of li.subscriptions) space.subs.set(s.id, s);
    this.spaces.set(instanceId, space);
    this.changes.baseRevisions.set(instanceId, li.instance.revision);
    this.changes.baseStates.set(instanceId, li.instance.state);
    return space;
  }

  require(instanceId: string): InstanceSpace {
    const s = this.load(instanceId);
    if (!s) throw new NotFoundError(`instance ${instanceId} not found`);
    return s;
  }

  addInstance(instance: InstanceRecord): InstanceSpace {
    const space: InstanceSpace = {
      instance,
      executions: new Map(),
      vars: new Map(),
      tasks: new Map(),
      jobs: new Map(),
      subs: new Map(),
      varsChanged: false,
    };
    this.spaces.set(instance.id, space);
    track(this.changes.instances, "insert", instance);
    return space;
  }

  touchInstance(space: InstanceSpace): void {
    track(this.changes.instances, "update", space.instance);
  }

  spaceOfExecution(id: string): InstanceSpace | undefined {
    return this.execIndex.get(id);
  }

  exec(id: string): ExecutionRecord | undefined {
    return this.execIndex.get(id)?.executions.get(id);
  }

  putExecution(space: InstanceSpace, e: ExecutionRecord, op: Op): void {
    if (op === "delete") {
      space.executions.delete(e.id);
      this.execIndex.delete(e.id);
      const vars = space.vars.get(e.id);
      if (vars)
        for (const name of vars.keys())
          this.changes.variables.set(`${e.id}\u0000${name}`, {
            op: "delete",
            tenantId: e.tenantId,
            instanceId: e.instanceId,
            executionId: e.id,
            name,
            value: null,
          });
      space.vars.delete(e.id);
    } else {
      space.executions.set(e.id, e);
      this.execIndex.set(e.id, space);
    }
    track(this.changes.executions, op, e);
  }

  setVar(space: InstanceSpace, executionId: string, name: string, value: unknown): void {
    let m = space.vars.get(executionId);
    if (!m) space.vars.set(executionId, (m = new Map()));
    m.set(name, value === undefined ? null : value);
    space.varsChanged = true;
    this.changes.variables.set(`${executionId}\u0000${name}`, {
      op: "upsert",
      tenantId: space.instance.tenantId,
      instanceId: space.instance.id,
      executionId,
      name,
      value: value ?? null,
    });
  }

  putTask(space: InstanceSpace, t: TaskRecord, op: Op): void {
    if (t.state === "OPEN") space.tasks.set(t.id, t);
    else space.tasks.delete(t.id);
    if (op === "insert") this.changes.createdTasks.push(t);
    track(this.changes.tasks, op, t);
  }

  putJob(space: InstanceSpace | null, j: JobRecord, op: Op): void {
    if (space) {
      if (op === "delete") space.jobs.delete(j.id);
      else space.jobs.set(j.id, j);
    }
    track(this.changes.jobs, op, j);
  }

  putSub(space: InstanceSpace | null, s: SubscriptionRecord, op: Op): void {
    if (space) {
      if (op === "delete") space.subs.delete(s.id);
      else space.subs.set(s.id, s);
    }
    track(this.changes.subscriptions, op, s);
  }

  putActivity(a: ActivityRecord, op: Op): void {
    track(this.changes.activities, op, a);
  }

  involve(i: Involvement): void {
    this.changes.involvements.push(i);
  }

  /** Subscriptions by name: the stored ones as this command changed them, plus those it created. */
  findSubscriptions(type: SubscriptionRecord["type"], name: string): SubscriptionRecord[] {
    const out = new Map<string, SubscriptionRecord>();
    for (const s of this.store.findSubscriptions(this.tenantId, type, name)) out.set(s.id, s);
    for (const [id, c] of this.changes.subscriptions) {
      if (c.op === "delete") out.delete(id);
      else if (c.row.type === type && c.row.name === name) out.set(id, c.row);
    }
    return [...out.values()].sort((a, b) => a.createdAt - b.createdAt);
  }
}
