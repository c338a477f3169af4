import { NotFoundError, UnprocessableError } from "../../errors";
import { scopeOf, valueOf } from "../scope";
import type { Behaviour } from "./behaviour";

/** Starts a child case in the same command; non-blocking completes at once, blocking completes when the child case ends. */
export const caseTask: Behaviour = {
  async start(run, pi, pm) {
    if (!pm.caseRef)
      throw new UnprocessableError(
        `Case task '${pm.definitionRef}' (plan item '${pm.id}') names no case (caseRef): it cannot start`,
      );
    const key = String(valueOf(pm.caseRef, scopeOf(run.lc, pi, pm)) ?? "");
    const def = run.s.deps.startableDefinition(run.s.tenantId, key);
    if (!def) throw new NotFoundError(`Case task '${pm.id}': case definition '${key}' not found`);
    const child = await run.startChildCase(def, {
      businessKey: run.lc.instance.businessKey,
      variables: { ...run.lc.instance.variables },
      startedBy: run.lc.instance.startedBy,
      channel: run.lc.instance.channel,
      parentCaseId: pm.isBlocking ? run.lc.instance.id : null,
      parentPlanItemId: pm.isBlocking ? pi.id : null,
    });
    pi.data.childCaseId = child.instance.id;
    run.s.touch(run.lc, pi);
    if (!pm.isBlocking || child.instance.state !== "ACTIVE") {
      // a blocking child that ended during its own start is reported here, not through the parent queue
      const i = run.s.endedChildren.indexOf(child.instance.id);
      if (i >= 0) run.s.endedChildren.splice(i, 1);
      await run.complete(pi);
    }
  },
  end(run, pi) {
    const id = pi.data.childCaseId;
    if (!id) return;
    const child = run.s.get(id);
    if (child.instance.state === "ACTIVE" && child.instance.parentCaseId)
      run.forCase(child).endCase("TERMINATED", "terminate");
  },
};
