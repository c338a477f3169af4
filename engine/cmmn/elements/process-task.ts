import { UnprocessableError } from "../../errors";
import { scopeOf, valueOf } from "../scope";
import type { Behaviour } from "./behaviour";

/** Starts a BPMN instance through the injected process starter; non-blocking completes at once, blocking waits for its end. */
export const processTask: Behaviour = {
  async start(run, pi, pm) {
    const start = run.s.deps.startProcess;
    if (!start) throw new UnprocessableError(`Process task '${pm.id}' cannot run: no process engine is connected`);
    const key = String(valueOf(pm.processRef, scopeOf(run.lc, pi, pm)) ?? "");
    const r = await start(
      run.s.tenantId,
      key,
      { ...run.lc.instance.variables },
      { caseInstanceId: run.lc.instance.id, planItemId: pi.id },
    );
    pi.data.processInstanceId = r.id;
    run.s.touch(run.lc, pi);
    if (!pm.isBlocking || r.ended) await run.complete(pi);
  },
};
