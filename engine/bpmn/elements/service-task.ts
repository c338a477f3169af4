import { BpmnError, type DelegateContext } from "../delegates/types";
import { DelegateFailure, EngineError, RevisionConflict } from "../../errors";
import type { Behaviour } from "../behaviour";
import { throwError } from "../events/errors";
import type { Run } from "../run";
import type { ExecutionRecord } from "../state";
import type { ElementModel } from "../../model/bpmn/types";

function context(run: Run, token: ExecutionRecord, el: ElementModel, params: Record<string, unknown>): DelegateContext {
  const inst = run.space(token).instance;
  return {
    tenantId: inst.tenantId,
    instanceId: inst.id,
    definitionKey: inst.definitionKey,
    startedBy: inst.startedBy,
    businessKey: inst.businessKey,
    activityId: el.id,
    params,
    getVariable: (n) => run.getVar(token, n),
    variables: () => run.allVars(token),
    setVariable: (n, v) => run.setVar(token, n, v),
    log: (message, data) => run.deps.logger.info(message, { ...data, activityId: el.id }),
    once: (key, work) => run.s.once(`${inst.id}/${el.id}/${key}`, work),
  };
}

function after(run: Run, token: ExecutionRecord, el: ElementModel, err?: unknown): void {
  if (err instanceof BpmnError) return throwError(run, token, err.code, err.message);
  if (err instanceof EngineError || err instanceof RevisionConflict) throw err;
  if (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new DelegateFailure(`Service task '${el.id}' (${el.service?.delegate}) failed: ${reason}`, {
      activityId: el.id,
    });
  }
  if (run.alive(token)) run.leave(token);
}

/** Service and send tasks: a robot (external job), an expression, or a registered delegate with its fields; unknown implementations raise an incident. */
export const serviceTask: Behaviour = {
  execute(run, token, el) {
    const agent = run.agentOf(token, el);
    const svc = agent ? { delegate: "agent", fields: {}, agent } : el.service;
    // A robot's step waits as an external job until a runner completes it (or throws a BPMN error).
    if (svc?.robot)
      return void run.newJob(token, el, "external", run.now, {
        topic: svc.robot,
        // an agent's tool call: the runner's last failure is told to the model (app/runtime/bpmn/external.ts)
        ...(token.data.toolCall ? { toolCall: token.data.toolCall } : {}),
        ...(svc.taskPriority !== undefined ? { priority: svc.taskPriority } : {}),
      });
    if (!svc || (!svc.delegate && !svc.expression)) {
      if (el.type === "sendTask") return run.leave(token);
      return run.incident(token, el, `service task '${el.id}' has no implementation`);
    }
    if (svc.expression) {
      const v = run.evalValue(token, svc.expression);
      if (svc.resultVariable) run.setVar(token, svc.resultVariable, v);
      return run.leave(token);
    }
    const delegate = run.deps.delegates.get(svc.delegate!);
    if (!delegate) return run.incident(token, el, `No delegate named '${svc.delegate}' is registered`);
    const params: Record<string, unknown> = {};
    for (const [k, src] of Object.entries(svc.fields)) params[k] = run.evalValue(token, src);
    if (agent) params.agent = agent;
    let res: void | Promise<void>;
    try {
      res = delegate.execute(context(run, token, el, params));
    } catch (e) {
      return after(run, token, el, e);
    }
    if (res && typeof res.then === "function")
      return res.then(
        () => after(run, token, el),
        (e) => after(run, token, el, e),
      );
    after(run, token, el);
  },
};
