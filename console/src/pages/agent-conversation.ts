import { api } from "../api";
import { when } from "../format";
import { html } from "../html";
import { useLoad } from "../use-load";

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
export function saidIn(t: Turn): string {
  const parts: string[] = [];
  for (const m of t.messages) {
    if (m.role !== "assistant") continue;
    if (typeof m.content === "string") parts.push(m.content);
    else if (Array.isArray(m.content))
      for (const p of m.content as { type: string; text?: string }[])
        if (p.type === "text" && p.text) parts.push(p.text);
  }
  return parts.join("\n").trim();
}

/** The agent's own tools it used within a turn (cms_query, ...): the tool calls of its messages that were not activities. */
function ownToolsIn(t: Turn): string[] {
  const activities = new Set(t.calls.map((c) => c.callId));
  const names: string[] = [];
  for (const m of t.messages)
    if (m.role === "assistant" && Array.isArray(m.content))
      for (const p of m.content as { type: string; toolName?: string; toolCallId?: string }[])
        if (p.type === "tool-call" && !activities.has(p.toolCallId ?? "")) names.push(p.toolName ?? "?");
  return names;
}

function TurnView({ t }: { t: Turn }) {
  const said = saidIn(t);
  const own = ownToolsIn(t);
  return html`<li class="agent-turn">
    ${t.results.map(
      (r) => html`<div class=${`agent-result ${r.ok ? "ok" : "failed"}`}>
        <strong>${r.tool}</strong> ${r.ok ? "answered" : "failed"}: <code>${short(r.value)}</code>
      </div>`,
    )}
    <div class="agent-model">
      <span class="muted">Turn ${t.turn + 1} · ${when(t.createdAt)} · ${t.tokens} tokens</span>
      ${said ? html`<p>${said}</p>` : null}
      ${own.length ? html`<p class="muted">Used ${own.join(", ")}</p>` : null}
      ${
        t.calls.length
          ? html`<ul aria-label="Tools called">${t.calls.map(
              (c) => html`<li key=${c.callId}>Called <strong>${c.tool}</strong> <code>${short(c.args)}</code></li>`,
            )}</ul>`
          : null
      }
      ${t.final ? html`<p>Finished with <code>${short(t.final)}</code></p>` : null}
    </div>
  </li>`;
}

function LoopView({ loop }: { loop: AgentLoop }) {
  return html`<article class="agent-loop" aria-label=${`Agent ${loop.agentKey} at ${loop.subProcessId}`}>
    <h3>${loop.agentKey} <span class="muted">at ${loop.subProcessId} · ${loop.state} · ${loop.tokens} tokens</span></h3>
    <ol class="agent-turns">${loop.turns.map((t) => html`<${TurnView} key=${t.turn} t=${t} />`)}</ol>
    ${
      loop.waiting.length
        ? html`<p role="status">Waiting for ${loop.waiting.map(
            (w, i) =>
              html`${i ? ", " : ""}${w.taskId ? html`<a href=${`#/tasks/${w.taskId}`}>${w.tool} (a person)</a>` : w.tool}`,
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
  if (loops.error) return html`<p class="alert" role="alert">Agent conversation: ${loops.error}</p>`;
  if (!loops.data?.length) return null;
  return html`<section aria-labelledby="agent-h">
    <h2 id="agent-h">Agent conversation</h2>
    ${loops.data.map((l) => html`<${LoopView} key=${l.subProcessId + l.turns[0]?.createdAt} loop=${l} />`)}
  </section>`;
}
