import { BadRequestError } from "../errors";
import type { Run } from "./run";
import type { DefinitionRecord, InstanceRecord } from "./state";
import { startScope } from "./events/event-subscriptions";

export interface StartOptions {
  businessKey?: string | null;
  variables?: Record<string, unknown>;
  startedBy?: string | null;
  channel?: string | null;
  /** start event to begin at (message/signal/timer start); default: the none start event */
  startEventId?: string;
  parentInstanceId?: string | null;
  parentExecutionId?: string | null;
}

/** Creates an instance of `def` in the session and queues its start; the root execution id is the instance id. */
export function startProcess(run: Run, def: DefinitionRecord, opts: StartOptions): InstanceRecord {
  const m = def.model;
  // As Camunda: a process whose one start event is a message, signal or timer start is started through that event.
  const eventStarts = [...m.messageStarts, ...m.signalStarts, ...m.timerStarts].map((x) => x.elementId);
  const startId = opts.startEventId ?? m.starts[0] ?? (eventStarts.length === 1 ? eventStarts[0] : undefined);
  if (!startId)
    throw new BadRequestError(
      `Process '${def.key}' has no none start event and ${eventStarts.length} event start events: start it by message, signal or timer`,
    );
  const instance: InstanceRecord = {
    id: run.deps.newId(),
    tenantId: def.tenantId,
    definitionId: def.id,
    definitionKey: def.key,
    version: def.version,
    businessKey: opts.businessKey ?? null,
    parentInstanceId: opts.parentInstanceId ?? null,
    parentExecutionId: opts.parentExecutionId ?? null,
    state: "ACTIVE",
    startedBy: opts.startedBy ?? null,
    channel: opts.channel ?? null,
    startTime: run.now,
    endTime: null,
    endReason: null,
    revision: 0,
  };
  const space = run.s.addInstance(instance);
  const root = run.newExecution(space, null, "scope", m.id, instance.id);
  for (const [k, v] of Object.entries(opts.variables ?? {})) run.setLocal(root, k, v);
  const initiator = m.elements[startId]?.initiator;
  if (initiator) run.setLocal(root, initiator, opts.startedBy ?? null);
  if (opts.startedBy)
    run.s.involve({
      tenantId: def.tenantId,
      instanceId: instance.id,
      kind: "user",
      principal: opts.startedBy,
      reason: "started",
    });
  startScope(run, root, m.eventSubprocesses, startId);
  return instance;
}
