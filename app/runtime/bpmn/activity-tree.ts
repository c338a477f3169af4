import type { ExecutionRecord } from "../../../engine/bpmn";
import type { RuntimeContext } from "./context";

/** One execution of an instance: the process scope, a subprocess scope, a multi-instance body or a token at an activity. */
export interface ActivityTreeNode {
  executionId: string;
  activityId: string;
  kind: "process" | "scope" | "multiInstanceBody" | "activity";
  /** `joined`: parked at a converging gateway, waiting for the other branches */
  state: "active" | "joined";
  children: ActivityTreeNode[];
}

/** The active executions of an instance as a tree of scopes (an ended instance has none: its tree is null). */
export function createActivityTree(ctx: RuntimeContext) {
  return (tenantId: string, instanceId: string): ActivityTreeNode | null => {
    const loaded = ctx.store.loadInstance(tenantId, instanceId);
    if (!loaded) return null;
    const byParent = new Map<string | null, ExecutionRecord[]>();
    for (const e of loaded.executions) byParent.set(e.parentId, [...(byParent.get(e.parentId) ?? []), e]);
    const node = (e: ExecutionRecord): ActivityTreeNode => ({
      executionId: e.id,
      activityId: e.activityId ?? e.scopeId ?? "",
      kind: !e.parentId ? "process" : e.kind === "mi" ? "multiInstanceBody" : e.kind === "scope" ? "scope" : "activity",
      state: e.state,
      children: (byParent.get(e.id) ?? []).map(node),
    });
    const root = loaded.executions.find((e) => e.id === instanceId);
    return root ? node(root) : null;
  };
}
