import { addDuration, parseDuration } from "../../jobs/duration";
import { scopeOf, valueOf } from "../scope";
import type { TaskRecord } from "../state";
import type { Behaviour } from "./behaviour";

function list(v: unknown): string[] {
  if (v === null || v === undefined) return [];
  const parts = Array.isArray(v) ? v.map(String) : String(v).split(",");
  return [...new Set(parts.map((s) => s.trim()).filter(Boolean))];
}

function due(v: unknown, now: number): number | null {
  if (v === null || v === undefined || v === "") return null;
  if (typeof v === "number") return v;
  const d = parseDuration(String(v));
  if (d) return addDuration(now, d);
  const t = Date.parse(String(v));
  return Number.isNaN(t) ? null : t;
}

/** Creates a task in the shared task service (assignee, candidates, form with its version locked now); completing it completes the item. */
export const humanTask: Behaviour = {
  start(run, pi, pm) {
    const def = pm.humanTask ?? {};
    const scope = scopeOf(run.lc, pi, pm);
    const str = (src: string | undefined) => {
      const v = valueOf(src, scope);
      return v === null || v === undefined || v === "" ? null : String(v);
    };
    const inst = run.lc.instance;
    const deps = run.s.deps;
    const formKey = str(def.formKey);
    const task: TaskRecord = {
      id: deps.newId(),
      tenantId: inst.tenantId,
      instanceId: inst.id,
      executionId: pi.id,
      activityId: pi.elementId,
      name: pi.name,
      businessKey: inst.businessKey,
      definitionKey: inst.definitionKey,
      definitionId: inst.definitionId,
      assignee: str(def.assignee),
      owner: null,
      candidateUsers: list(valueOf(def.candidateUsers, scope)),
      candidateGroups: list(valueOf(def.candidateGroups, scope)),
      created: run.s.now,
      dueDate: due(valueOf(def.dueDate, scope), run.s.now),
      priority: Number(str(def.priority) ?? 50) || 50,
      formKey,
      formVersionId:
        formKey && deps.formVersionFor ? deps.formVersionFor(inst.tenantId, inst.definitionKey, formKey) : null,
      state: "OPEN",
      completedAt: null,
      completedBy: null,
      channel: null,
    };
    run.s.changes.tasksCreated.push(task);
    pi.data.taskId = task.id;
    if (task.assignee) run.s.involve(inst.id, "user", task.assignee);
    for (const u of task.candidateUsers) run.s.involve(inst.id, "user", u);
    for (const g of task.candidateGroups) run.s.involve(inst.id, "group", g);
  },
  end(run, pi) {
    if (pi.data.taskId) run.s.endTask(pi.data.taskId, "CANCELLED", null, null);
  },
};
