import { addDuration, parseDuration } from "../../jobs/duration";
import type { Behaviour } from "../behaviour";
import type { Run } from "../run";
import type { ExecutionRecord, TaskRecord } from "../state";

function list(run: Run, token: ExecutionRecord, src: string | undefined): string[] {
  if (!src) return [];
  const out: string[] = [];
  for (const part of src.split(/,(?![^{]*\})/)) {
    const v = run.evalValue(token, part.trim());
    if (Array.isArray(v)) out.push(...v.map(String));
    else if (v !== null && v !== undefined && String(v).trim() !== "")
      out.push(
        ...String(v)
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      );
  }
  return [...new Set(out)];
}

function dueDate(run: Run, token: ExecutionRecord, src: string | undefined): number | null {
  if (!src) return null;
  const v = run.evalValue(token, src);
  if (v === null || v === undefined || v === "") return null;
  if (typeof v === "number") return v;
  const d = parseDuration(String(v));
  if (d) return addDuration(run.now, d);
  const t = Date.parse(String(v));
  return Number.isNaN(t) ? null : t;
}

/** Creates the task (assignee, candidates, form with its version locked now, due date, priority) and waits for its completion. */
export const userTask: Behaviour = {
  execute(run, token, el) {
    const space = run.space(token);
    const inst = space.instance;
    const def = el.userTask ?? {};
    const str = (src: string | undefined) => {
      if (!src) return null;
      const v = run.evalValue(token, src);
      return v === null || v === undefined || v === "" ? null : String(v);
    };
    const formKey = str(def.formKey);
    const task: TaskRecord = {
      id: run.deps.newId(),
      tenantId: inst.tenantId,
      instanceId: inst.id,
      executionId: token.id,
      activityId: el.id,
      name: str(el.name) ?? el.id,
      businessKey: inst.businessKey,
      definitionKey: inst.definitionKey,
      definitionId: inst.definitionId,
      assignee: str(def.assignee),
      owner: null,
      candidateUsers: list(run, token, def.candidateUsers),
      candidateGroups: list(run, token, def.candidateGroups),
      created: run.now,
      dueDate: dueDate(run, token, def.dueDate),
      priority: Number(str(def.priority) ?? 50) || 50,
      formKey,
      formVersionId:
        formKey && run.deps.formVersionFor ? run.deps.formVersionFor(inst.tenantId, inst.definitionKey, formKey) : null,
      state: "OPEN",
      completedAt: null,
      completedBy: null,
      channel: null,
    };
    run.s.putTask(space, task, "insert");
    const act = token.data.actId ? run.s.changes.activities.get(token.data.actId) : undefined;
    if (act) act.row.taskId = task.id;
    const inv = (kind: "user" | "group", principal: string, reason: string) =>
      run.s.involve({ tenantId: inst.tenantId, instanceId: inst.id, kind, principal, reason });
    if (task.assignee) inv("user", task.assignee, "assignee");
    for (const u of task.candidateUsers) inv("user", u, "candidate");
    for (const g of task.candidateGroups) inv("group", g, "candidate");
  },
};
