import { ConflictError, NotFoundError } from "../errors";
import { completeAdhocSubProcess, enabledAdhocActivities, executeAdhocActivity } from "./adhoc-commands";
import { agentDeadline, agentTurn, failAgentTool } from "./agent-loop";
import type { EngineDeps } from "./deps";
import { correlateMessage, type CorrelateOptions, throwSignal } from "./events/broadcast";
import { fireTimerJob } from "./events/triggers";
import { cancelInstance } from "./instance-end";
import { completeExternal, externalBpmnError } from "./external-commands";
import { startProcess, type StartOptions } from "./instance-start";
import { nextRepeat } from "../jobs/timers";
import { behaviourFor } from "./registry";
import { Run } from "./run";
import type { Session } from "./session";
import type { DefinitionRecord, InstanceRecord, JobRecord, TaskRecord } from "./state";

export interface Actor {
  userId: string | null;
  channel: string;
}

/** The engine's commands: each runs over a Session until every token rests; the caller persists session.changes. */
export function createBpmnEngine(deps: EngineDeps) {
  const run = async <T>(s: Session, fn: (r: Run) => T): Promise<Awaited<T>> => {
    const r = new Run(s, deps);
    // A job that runs its step directly (an async continuation, a service step's retry) answers the step's promise
    // when the delegate is async: what follows the step is queued only once it settles, so the agenda drains after.
    const out = await fn(r);
    await r.drain();
    return out;
  };

  // The task and then its instance, read as one snapshot where the store can.
  const openTask = (s: Session, taskId: string): { task: TaskRecord } =>
    s.store.together ? s.store.together(() => openTaskNow(s, taskId)) : openTaskNow(s, taskId);
  const openTaskNow = (s: Session, taskId: string): { task: TaskRecord } => {
    const stored = s.store.findTask(s.tenantId, taskId);
    if (!stored) throw new NotFoundError(`Task ${taskId} not found`);
    const space = s.require(stored.instanceId);
    const task = space.tasks.get(taskId);
    if (!task)
      throw new ConflictError(`Task ${taskId} is already ${stored.state === "CANCELLED" ? "cancelled" : "completed"}`);
    if (space.instance.state === "SUSPENDED") throw new ConflictError(`Instance ${space.instance.id} is suspended`);
    // A task whose execution is gone is an inconsistency: a clear 409, never a crash.
    if (!space.executions.has(task.executionId))
      throw new ConflictError(`Task ${taskId} no longer has an active execution in instance ${space.instance.id}`);
    return { task };
  };

  return {
    /** Starts an instance of `def`. */
    start: (s: Session, def: DefinitionRecord, opts: StartOptions): Promise<InstanceRecord> =>
      run(s, (r) => startProcess(r, def, opts)),

    /** Completes an open task with variables, recording who and through which channel. */
    completeTask: (s: Session, taskId: string, variables: Record<string, unknown>, actor: Actor) =>
      run(s, (r) => {
        const { task } = openTask(s, taskId);
        const space = s.require(task.instanceId);
        const token = space.executions.get(task.executionId)!;
        for (const [k, v] of Object.entries(variables ?? {})) r.setVar(token, k, v);
        task.state = "COMPLETED";
        task.completedAt = s.now;
        task.completedBy = actor.userId;
        task.channel = actor.channel;
        s.putTask(space, task, "update");
        // The one who started the instance was involved by the start (involvements are only ever removed with the
        // instance): completing their own task writes nothing more.
        if (actor.userId && actor.userId !== space.instance.startedBy)
          s.involve({
            tenantId: task.tenantId,
            instanceId: task.instanceId,
            kind: "user",
            principal: actor.userId,
            reason: "completed",
          });
        r.actEnd(token, "completed", { who: actor.userId, channel: actor.channel, taskId: task.id });
        token.data.actId = undefined;
        r.schedule(() => r.leave(token));
        return task;
      }),

    /** Writes variables on a task's execution chain without completing it (conditional events re-evaluate). */
    setTaskVariables: (s: Session, taskId: string, variables: Record<string, unknown>) =>
      run(s, () => {
        const { task } = openTask(s, taskId);
        const r = new Run(s, deps);
        const token = s.require(task.instanceId).executions.get(task.executionId)!;
        for (const [k, v] of Object.entries(variables)) r.setVar(token, k, v);
        return task;
      }),

    /** Sets instance variables (conditional events re-evaluate). */
    setInstanceVariables: (s: Session, instanceId: string, variables: Record<string, unknown>) =>
      run(s, (r) => {
        const space = s.require(instanceId);
        for (const [k, v] of Object.entries(variables)) s.setVar(space, instanceId, k, v);
        return r;
      }),

    correlateMessage: (s: Session, name: string, opts: CorrelateOptions) =>
      run(s, (r) => correlateMessage(r, name, opts)),

    signal: (s: Session, name: string, variables?: Record<string, unknown>) =>
      run(s, (r) => throwSignal(r, name, variables)),

    /** Moves a token waiting at `activityId` (receive task, catch event) as if its trigger arrived. */
    trigger: (s: Session, instanceId: string, activityId: string, variables?: Record<string, unknown>) =>
      run(s, (r) => {
        const space = s.require(instanceId);
        const token = [...space.executions.values()].find(
          (e) => e.activityId === activityId && e.kind === "token" && r.children(e).length === 0,
        );
        if (!token) throw new ConflictError(`No execution of instance ${instanceId} waits at '${activityId}'`);
        const type = r.el(token, activityId).type;
        // A user task is completed through its task (form, assignee, history); a trigger would leave it open.
        if (type === "userTask")
          throw new ConflictError(`'${activityId}' is a user task: complete its task instead of triggering it`);
        for (const [k, v] of Object.entries(variables ?? {})) r.setVar(token, k, v);
        r.removeEventsOf(token);
        r.schedule(() => r.leave(token));
      }),

    /** Ad-hoc subprocesses: what a caller may start, starting one activity, completing the subprocess. */
    enabledAdhocActivities: (s: Session, instanceId: string) => enabledAdhocActivities(s, instanceId),
    executeAdhocActivity: (s: Session, instanceId: string, activityId: string, variables?: Record<string, unknown>) =>
      run(s, (r) => executeAdhocActivity(r, instanceId, activityId, variables)),
    completeAdhocSubProcess: (s: Session, instanceId: string, subProcessId: string) =>
      run(s, (r) => completeAdhocSubProcess(r, instanceId, subProcessId)),

    /** A tool activity of an agent loop failed past its job's retries: cancelled, and reported to the model. */
    failAgentTool: (s: Session, instanceId: string, executionId: string, message: string) =>
      run(s, (r) => failAgentTool(r, instanceId, executionId, message)),

    /** A robot runner completes an external job, or throws a BPMN error at its step. */
    completeExternal: (s: Session, instanceId: string, jobId: string, variables: Record<string, unknown>) =>
      run(s, (r) => completeExternal(r, s, instanceId, jobId, variables)),
    externalBpmnError: (
      s: Session,
      instanceId: string,
      jobId: string,
      error: { code: string; message?: string; variables?: Record<string, unknown> },
    ) => run(s, (r) => externalBpmnError(r, s, instanceId, jobId, error)),

    cancel: (s: Session, instanceId: string, reason: string) =>
      run(s, (r) => {
        s.require(instanceId);
        cancelInstance(r, instanceId, reason);
      }),

    /** Executes one job: timer, async continuation, or the retry of an incident. */
    executeJob: (s: Session, job: JobRecord) =>
      run(s, (r) => {
        if (!job.instanceId) {
          // Timer start event: a new instance, and the next occurrence of a cycle.
          s.putJob(null, job, "delete");
          const def = s.definition(job.definitionId);
          if (job.data.repeat) {
            const next = nextRepeat(job.data.repeat, s.now);
            if (next)
              s.putJob(
                null,
                {
                  ...job,
                  id: deps.newId(),
                  dueAt: next.dueAt,
                  data: { ...job.data, repeat: next.repeat },
                  retries: 3,
                  exception: null,
                  lockOwner: null,
                  lockExpiresAt: null,
                  createdAt: s.now,
                },
                "insert",
              );
          }
          startProcess(r, def, { startEventId: job.activityId, channel: "TIMER" });
          return;
        }
        const space = s.require(job.instanceId);
        if (space.instance.state !== "ACTIVE") throw new ConflictError(`Instance ${job.instanceId} is not active`);
        if (job.kind === "timer") return fireTimerJob(r, space.jobs.get(job.id) ?? job);
        s.putJob(space, job, "delete");
        const token = space.executions.get(job.executionId!);
        if (!token) return;
        const el = r.el(token, job.activityId);
        if (job.kind === "async" && job.data.agentTurn) return agentTurn(r, token, el);
        if (job.kind === "async" && job.data.agentDeadline) return agentDeadline(r, token, el);
        if (job.kind === "async") {
          token.data.asyncPassed = el.id;
          return r.proceed(token, el);
        }
        if (el.invalid) return r.incident(token, el, el.invalid);
        return behaviourFor(el.type).execute(r, token, el);
      }),
  };
}

export type BpmnEngine = ReturnType<typeof createBpmnEngine>;
