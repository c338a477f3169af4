import { api } from "../api";
import { when } from "../format";
import { html } from "../html";
import { t } from "../i18n";
import { useLoad } from "../use-load";
import { enumLabel } from "./work-labels";

interface Call {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
}
interface Turn {
  turn: number;
  results: { callId: string; tool: string; ok: boolean; value: unknown; durationMs: number }[];
  messages: { role: string; content: unknown }[];
  calls: Call[];
  final: Record<string, unknown> | null;
  tokens: number;
  durationMs: number;
  createdAt: string;
}
export interface AgentLoop {
  subProcessId: string;
  agentKey: string;
  state: "RUNNING" | "COMPLETED" | "ENDED";
  tokens: number;
  turns: Turn[];
  waiting: (Call & { taskId: string | null })[];
}

const short = (v: unknown) => {
  const s = JSON.stringify(v ?? null);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
};

/** What the model said in a turn: the text parts of its assistant messages. */
export function saidIn(turn: Turn): string {
  const parts: string[] = [];
  for (const m of turn.messages) {
    if (m.role !== "assistant") continue;
    if (typeof m.content === "string") parts.push(m.content);
    else if (Array.isArray(m.content))
      for (const p of m.content as { type: string; text?: string }[])
        if (p.type === "text" && p.text) parts.push(p.text);
  }
  return parts.join("\n").trim();
}

/** The agent's own tools it used within a turn (cms_query, ...): the tool calls of its messages that were not activities. */
function ownToolsIn(turn: Turn): string[] {
  const activities = new Set(turn.calls.map((c) => c.callId));
  const names: string[] = [];
  for (const m of turn.messages)
    if (m.role === "assistant" && Array.isArray(m.content))
      for (const p of m.content as { type: string; toolName?: string; toolCallId?: string }[])
        if (p.type === "tool-call" && !activities.has(p.toolCallId ?? "")) names.push(p.toolName ?? "?");
  return names;
}

function TurnView({ turn }: { turn: Turn }) {
  const said = saidIn(turn);
  const own = ownToolsIn(turn);
  return html`<li class="agent-turn">
    ${turn.results.map(
      (r) => html`<div class=${`agent-result ${r.ok ? "ok" : "failed"}`}>
        <strong>${r.tool}</strong> ${r.ok ? t("answered:") : t("failed:")} <code>${short(r.value)}</code>
      </div>`,
    )}
    <div class="agent-model">
      <span class="muted">${t("Turn {n}", { n: turn.turn + 1 })} · ${when(turn.createdAt)} · ${t("{n} tokens", { n: turn.tokens })}</span>
      ${said ? html`<p>${said}</p>` : null}
      ${own.length ? html`<p class="muted">${t("Used {tools}", { tools: own.join(", ") })}</p>` : null}
      ${
        turn.calls.length
          ? html`<ul aria-label=${t("Tools called")}>${turn.calls.map(
              (c) =>
                html`<li key=${c.callId}>${t("Called")} <strong>${c.tool}</strong> <code>${short(c.args)}</code></li>`,
            )}</ul>`
          : null
      }
      ${turn.final ? html`<p>${t("Finished with")} <code>${short(turn.final)}</code></p>` : null}
    </div>
  </li>`;
}

function LoopView({ loop }: { loop: AgentLoop }) {
  return html`<article class="agent-loop" aria-label=${t("Agent {agent} at {step}", { agent: loop.agentKey, step: loop.subProcessId })}>
    <h3>${loop.agentKey} <span class="muted">${t("at {step}", { step: loop.subProcessId })} · ${enumLabel(loop.state)} · ${t("{n} tokens", { n: loop.tokens })}</span></h3>
    <ol class="agent-turns">${loop.turns.map((turn) => html`<${TurnView} key=${turn.turn} turn=${turn} />`)}</ol>
    ${
      loop.waiting.length
        ? html`<p role="status">${t("Waiting for")} ${loop.waiting.map(
            (w, i) =>
              html`${i ? ", " : ""}${w.taskId ? html`<a href=${`#/tasks/${w.taskId}`}>${t("{tool} (a person)", { tool: w.tool })}</a>` : w.tool}`,
          )}</p>`
        : null
    }
  </article>`;
}

/**
 * The agent loops of a process instance (ad-hoc subprocesses an agent drives) as conversations: each turn with the
 * results it was given, what the model said and called, and what the loop waits for, a person's task linked
 * (GET /a/history/instances/{id}/agent-conversation). Nothing is shown for an instance without one.
 */
export function AgentConversation({ instanceId }: { instanceId: string }) {
  const loops = useLoad(
    () => api<AgentLoop[]>("GET", `/a/history/instances/${instanceId}/agent-conversation`),
    [instanceId],
  );
  if (loops.error)
    return html`<p class="alert" role="alert">${t("Agent conversation: {error}", { error: loops.error })}</p>`;
  if (!loops.data?.length) return null;
  return html`<section aria-labelledby="agent-h">
    <h2 id="agent-h">${t("Agent conversation")}</h2>
    ${loops.data.map((l) => html`<${LoopView} key=${l.subProcessId + l.turns[0]?.createdAt} loop=${l} />`)}
  </section>`;
}
