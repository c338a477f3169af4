import type { ElementModel } from "../../model/bpmn/types";
import type { Run } from "../run";
import type { ExecutionRecord } from "../state";

/** Arms a catching event definition (timer, message, signal, conditional) for element `el` on execution `e`. */
export function armEvent(run: Run, e: ExecutionRecord, el: ElementModel): void {
  const ev = el.event;
  if (!ev) return;
  if (ev.kind === "timer") run.timer(e, el);
  else if (ev.kind === "message" || ev.kind === "signal")
    run.subscribe(e, el.id, ev.kind, String(run.evalValue(e, ev.name ?? el.id)));
  else if (ev.kind === "conditional")
    run.subscribe(e, el.id, "conditional", el.id, { lastTrue: run.evalCondition(e, ev.condition!) });
}

/** Arms the start events of the event subprocesses of a scope that has just started. */
export function armEventSubprocesses(run: Run, scope: ExecutionRecord, eventSubprocesses: string[]): void {
  for (const id of eventSubprocesses) {
    const esp = run.el(scope, id);
    for (const startId of esp.starts ?? []) {
      const start = run.el(scope, startId);
      // A conditional start only fires on a change after the scope began.
      if (start.event?.kind === "conditional")
        run.subscribe(scope, start.id, "conditional", start.id, { lastTrue: false });
      else armEvent(run, scope, start);
    }
  }
}

/** Starts a scope execution: arms its event subprocesses and puts a token on the start event. */
export function startScope(run: Run, scope: ExecutionRecord, eventSubprocesses: string[], startEventId: string): void {
  armEventSubprocesses(run, scope, eventSubprocesses);
  const token = run.newToken(scope);
  run.schedule(() => run.enter(token, startEventId));
}
