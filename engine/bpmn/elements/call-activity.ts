import { UnprocessableError } from "../../errors";
import { compileValue } from "../../expressions";
import type { Mapping } from "../../model/bpmn/types";
import type { Behaviour } from "../behaviour";
import { startProcess } from "../instance-start";
import type { Run } from "../run";

function mapVars(
  mappings: Mapping[],
  source: Record<string, unknown>,
  evalIn: (expr: string) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of mappings) {
    if (m.all) {
      Object.assign(out, source);
      continue;
    }
    const value = m.sourceExpression ? evalIn(m.sourceExpression) : source[m.source!];
    out[m.target ?? m.source!] = value ?? null;
  }
  return out;
}

/** Starts the published (else latest) version of the called process with the mapped variables, and waits for it. */
export const callActivity: Behaviour = {
  execute(run, token, el) {
    const call = el.call!;
    const key = String(run.evalValue(token, call.calledElement));
    const inst = run.space(token).instance;
    const def = run.s.store.startableDefinition(inst.tenantId, key);
    if (!def)
      throw new UnprocessableError(
        `Call activity '${el.id}' calls process '${key}', which is not deployed in this tenant`,
      );
    const vars = mapVars(call.inputs, run.allVars(token), (x) => compileValue(x)(run.scope(token)));
    const businessKey = call.businessKey
      ? String(run.evalValue(token, call.businessKey) ?? "") || inst.businessKey
      : inst.businessKey;
    const child = startProcess(run, def, {
      businessKey,
      variables: vars,
      startedBy: inst.startedBy,
      channel: inst.channel,
      parentInstanceId: inst.id,
      parentExecutionId: token.id,
    });
    (token.data as { childInstanceId?: string }).childInstanceId = child.id;
    run.mark(token);
  },
};

/** The called instance completed: copy the output mappings back and let the call activity's token move on. */
export function childEnded(
  run: Run,
  parentInstanceId: string,
  executionId: string,
  childVars: Record<string, unknown>,
): void {
  const space = run.s.load(parentInstanceId);
  const token = space?.executions.get(executionId);
  if (!space || !token || (space.instance.state !== "ACTIVE" && space.instance.state !== "SUSPENDED")) return;
  const el = run.el(token);
  const scope = { get: (n: string) => childVars[n], all: () => childVars };
  const out = mapVars(el.call!.outputs, childVars, (x) => compileValue(x)(scope));
  for (const [k, v] of Object.entries(out)) run.setVar(token, k, v);
  delete (token.data as { childInstanceId?: string }).childInstanceId;
  run.leave(token);
}
