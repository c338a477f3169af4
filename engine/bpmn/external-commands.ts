import { ConflictError, NotFoundError } from "../errors";
import { throwError } from "./events/errors";
import type { Run } from "./run";
import type { Session } from "./session";
import type { ExecutionRecord } from "./state";

/** The token waiting on an external (robot) job of the session's tenant; NotFound when the job is gone. */
function waitingToken(r: Run, s: Session, instanceId: string, jobId: string): ExecutionRecord {
  const space = s.require(instanceId);
  const job = space.jobs.get(jobId);
  if (!job || job.kind !== "external") throw new NotFoundError(`External task ${jobId} not found`);
  if (space.instance.state !== "ACTIVE") throw new ConflictError(`Instance ${instanceId} is not active`);
  const token = space.executions.get(job.executionId!);
  if (!token) throw new NotFoundError(`External task ${jobId} not found`);
  return token;
}

/** A runner finished the robot's work: its variables are set on the step's scope and the token moves on. */
export function completeExternal(
  r: Run,
  s: Session,
  instanceId: string,
  jobId: string,
  variables: Record<string, unknown>,
): void {
  const token = waitingToken(r, s, instanceId, jobId);
  for (const [k, v] of Object.entries(variables)) r.setVar(token, k, v);
  r.schedule(() => r.leave(token));
}

/** A runner reported a business error: thrown as a BPMN error at the step (boundary events and event subprocesses). */
export function externalBpmnError(
  r: Run,
  s: Session,
  instanceId: string,
  jobId: string,
  error: { code: string; message?: string; variables?: Record<string, unknown> },
): void {
  const token = waitingToken(r, s, instanceId, jobId);
  for (const [k, v] of Object.entries(error.variables ?? {})) r.setVar(token, k, v);
  r.schedule(() => throwError(r, token, error.code, error.message));
}
