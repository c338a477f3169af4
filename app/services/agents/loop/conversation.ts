import { seesWholeTenant, type TenantCtx } from "../../context";
import type { HistoryCtx } from "../../history/history";
import { visibilityOf } from "../../instances/visibility";
import { turnsOf } from "./turn-store";

type Turn = ReturnType<typeof turnsOf>[number];

/** The tool calls of a loop's last turn still running, with the person's task when a user task answers it. */
function waitingOf(last: Turn | undefined, openTasks: { id: string; activityId: string }[]) {
  if (!last || last.final) return [];
  const byActivity = new Map<string, string[]>();
  for (const t of openTasks) byActivity.set(t.activityId, [...(byActivity.get(t.activityId) ?? []), t.id]);
  return last.calls.map((c) => ({ ...c, taskId: byActivity.get(c.tool)?.shift() ?? null }));
}

/**
 * GET /a/history/instances/{id}/agent-conversation: each agent loop of the instance as a conversation (its turns: the
 * tool results it was given, the model's messages, the activities it called, its final outputs), and the calls its
 * latest turn still waits for (a person's task among them), for whoever may see the instance (404 otherwise). The
 * messages and the results hold what the agent read at its own CMS clearance (records, knowledge, every variable in
 * the prompt): only those who see the whole tenant (Manager, Admin, SA) read them; others get the turns' shape.
 */
export function agentConversation({ ctx, input }: { ctx: HistoryCtx & TenantCtx<"db">; input: { id: string } }) {
  const detail = ctx.processRuntime.historyInstance(ctx.tenant.id, input.id, visibilityOf(ctx));
  const openTasks = detail.tasks.filter((t) => t.state === "OPEN");
  const full = seesWholeTenant(ctx.actor);
  const loops = new Map<string, Turn[]>();
  for (const t of turnsOf(ctx, input.id)) loops.set(t.scopeId, [...(loops.get(t.scopeId) ?? []), t]);
  // Those who do not see the whole tenant get the turns' shape: no messages, results, arguments or outputs.
  const shown = (t: Turn): Turn =>
    full
      ? t
      : {
          ...t,
          messages: [],
          results: t.results.map((r) => ({ ...r, value: null })),
          calls: t.calls.map((c) => ({ ...c, args: {} })),
          final: t.final === null ? null : {},
        };
  return [...loops.values()].map((all) => {
    const turns = all.map(shown);
    const last = turns.at(-1);
    const done = !!last?.final || detail.state === "COMPLETED" || detail.state === "CANCELLED";
    return {
      subProcessId: turns[0].subProcessId,
      agentKey: turns[0].agentKey,
      state: (last?.final ? "COMPLETED" : done ? "ENDED" : "RUNNING") as "COMPLETED" | "ENDED" | "RUNNING",
      tokens: turns.reduce((n, t) => n + t.tokens, 0),
      turns: turns.map(({ scopeId: _s, subProcessId: _p, agentKey: _a, ...t }) => t),
      waiting: done ? [] : waitingOf(last, openTasks),
    };
  });
}

/** The agent loops of an instance in short (what MCP's svc_run_instance_get adds): state, spend, what they wait for. */
export function agentLoopsInShort(ctx: HistoryCtx & TenantCtx<"db">, id: string) {
  return agentConversation({ ctx, input: { id } }).map((l) => ({
    subProcessId: l.subProcessId,
    agentKey: l.agentKey,
    state: l.state,
    turns: l.turns.length,
    tokens: l.tokens,
    lastCalls: l.turns.at(-1)?.calls.map((c) => c.tool) ?? [],
    waiting: l.waiting.map((w) => ({ tool: w.tool, taskId: w.taskId })),
  }));
}
