/** Runtime rows of the engine: plain JSON-friendly records the store persists verbatim. */
import type { AgentLoopState } from "./agent-loop-types";

export type InstanceState = "ACTIVE" | "SUSPENDED" | "COMPLETED" | "CANCELLED";

export interface InstanceRecord {
  id: string;
  tenantId: string;
  definitionId: string;
  definitionKey: string;
  version: number;
  businessKey: string | null;
  parentInstanceId: string | null;
  parentExecutionId: string | null;
  state: InstanceState;
  startedBy: string | null;
  channel: string | null;
  startTime: number;
  endTime: number | null;
  endReason: string | null;
  revision: number;
}

/** A node of the execution tree: a scope (process, subprocess, multi-instance body) or a token resting at an activity. */
export interface ExecutionRecord {
  id: string;
  tenantId: string;
  instanceId: string;
  parentId: string | null;
  kind: "scope" | "token" | "mi";
  /** element whose scope this execution is (process id, subprocess id, multi-instance activity id) */
  scopeId: string | null;
  activityId: string | null;
  /** joined: parked at a converging gateway */
  state: "active" | "joined";
  data: {
    actId?: string;
    asyncPassed?: string;
    startAt?: string;
    items?: unknown[];
    /** a multi-instance body: the outputDataItem values collected so far, by loopCounter */
    outputs?: unknown[];
    compensating?: string;
    pending?: string[];
    /** an ad-hoc subprocess driven by an agent: its conversation and running tool calls (agent-loop.ts) */
    loop?: AgentLoopState;
    /** a token running an activity an agent called as a tool: the call's id, and the variables it wrote */
    toolCall?: string;
    toolOut?: Record<string, unknown>;
  };
  createdAt: number;
}

export interface TaskRecord {
  id: string;
  tenantId: string;
  instanceId: string;
  executionId: string;
  activityId: string;
  name: string;
  businessKey: string | null;
  definitionKey: string;
  definitionId: string;
  assignee: string | null;
  owner: string | null;
  candidateUsers: string[];
  candidateGroups: string[];
  created: number;
  dueDate: number | null;
  priority: number;
  formKey: string | null;
  formVersionId: string | null;
  state: "OPEN" | "COMPLETED" | "CANCELLED";
  completedAt: number | null;
  completedBy: string | null;
  channel: string | null;
}

/** `external`: work a robot runner fetches and completes; the executor never runs it itself. */
export type JobKind = "async" | "timer" | "incident" | "external";

export interface JobRecord {
  id: string;
  tenantId: string;
  instanceId: string | null;
  executionId: string | null;
  definitionId: string;
  activityId: string;
  kind: JobKind;
  state: "EXECUTABLE" | "DEADLETTER";
  dueAt: number;
  retries: number;
  exception: string | null;
  lockOwner: string | null;
  lockExpiresAt: number | null;
  /** `agent`: the job runs an AI agent step (its failures have no retry or dead-letter through the API) */
  data: {
    repeat?: { left: number; spec: string };
    retryCycle?: string;
    topic?: string;
    agent?: string;
    /** A robot step's `camunda:taskPriority` (fetches with usePriority take higher first). */
    priority?: number;
    /** What a robot runner reported with its last failure (`errorDetails`), kept apart from the message. */
    errorDetails?: string;
    /** the next turn of an agent loop (its ad-hoc subprocess' scope execution) */
    agentTurn?: boolean;
    /** the end of an agent loop's wall time: a loop still waiting then fails */
    agentDeadline?: boolean;
    /** the async start of an activity an agent called as a tool: its failure past the retries is told to the model */
    toolCall?: string;
  };
  createdAt: number;
}

export interface SubscriptionRecord {
  id: string;
  tenantId: string;
  /** null for start-event subscriptions of a deployed definition */
  instanceId: string | null;
  executionId: string | null;
  definitionId: string;
  activityId: string;
  type: "message" | "signal" | "conditional" | "compensate";
  name: string;
  data: { lastTrue?: boolean; handler?: string; variables?: Record<string, unknown> };
  createdAt: number;
}

export interface ActivityRecord {
  id: string;
  tenantId: string;
  instanceId: string;
  executionId: string;
  activityId: string;
  activityName: string;
  activityType: string;
  startTime: number;
  endTime: number | null;
  taskId: string | null;
  who: string | null;
  channel: string | null;
  /** How the visit ended; `executed` / `failed`: an operator ran a job now (`POST /a/jobs/{id}/execute`). */
  outcome: "completed" | "cancelled" | "executed" | "failed" | null;
}

export interface Involvement {
  tenantId: string;
  instanceId: string;
  kind: "user" | "group";
  principal: string;
  reason: string;
}

/** Everything of one instance a command needs: loaded at once, mutated in memory, written back with a revision check. */
export interface LoadedInstance {
  instance: InstanceRecord;
  executions: ExecutionRecord[];
  variables: Array<{ executionId: string; name: string; value: unknown }>;
  tasks: TaskRecord[];
  jobs: JobRecord[];
  subscriptions: SubscriptionRecord[];
}

/** A deployed definition as the engine reads it. */
export interface DefinitionRecord {
  id: string;
  tenantId: string;
  key: string;
  name: string;
  version: number;
  model: import("../model/bpmn/types").ProcessModel;
}
