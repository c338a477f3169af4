import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";
import { formatOutputs, parseOutputs } from "./agent-outputs";
import { AgentPlayground } from "./agent-playground";
import { type Agent, type AiModels, chatModels } from "./agents";
import { levelLabel } from "./cms-collections";
import type { KnowledgeBase } from "./knowledge-bases";

const TOOLS = [
  ["cms_query", () => t("query CMS collections")],
  ["kb_retrieve", () => t("search its knowledge bases")],
  ["read_variables", () => t("read the instance's variables")],
  ["read_attachments", () => t("read the instance's files")],
  ["evaluate_decision", () => t("evaluate decision tables")],
  ["set_output", () => t("set output variables")],
] as const;

/** The configuration form: every field of the agent, saved whole (PUT replaces the definition). */
function AgentForm({
  agent,
  models,
  bases,
  onSaved,
}: {
  agent: Agent;
  models: AiModels;
  bases: KnowledgeBase[];
  onSaved(a: Agent): void;
}) {
  const [a, setA] = useState(agent);
  const [outputs, setOutputs] = useState(formatOutputs(agent.outputVariables));
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const set = (patch: Partial<Agent>) => setA({ ...a, ...patch });
  const toggle = (list: string[], item: string, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));
  const save = (e: Event) => {
    e.preventDefault();
    setDone(null);
    const parsed = parseOutputs(outputs);
    return run(async () => {
      if ("error" in parsed) throw new Error(parsed.error);
      const { name, modelId, instructions, tools, knowledgeBaseIds, cmsClearance, limits } = a;
      const saved = await api<Agent>("PUT", `/a/agents/${encodeURIComponent(a.key)}`, {
        ...{ name, modelId, instructions, tools, knowledgeBaseIds, cmsClearance, limits },
        processKey: a.processKey?.trim() || null,
        outputVariables: parsed.vars,
      });
      setDone(t("{name} saved.", { name: saved.name }));
      onSaved(saved);
    });
  };
  const offered = chatModels(models).includes(a.modelId) ? chatModels(models) : [a.modelId, ...chatModels(models)];
  return html`<form class="inline" onSubmit=${save} aria-labelledby="a-conf">
    <h2 id="a-conf">${t("Configuration")}</h2>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    <div class="row-fields">
      <div class="field"><label for="c-name">${t("Name")}</label>
        <input id="c-name" required maxlength="200" value=${a.name} onInput=${(e: Event) => set({ name: valueOf(e) })} /></div>
      <div class="field"><label for="c-model">${t("Model")}</label>
        <select id="c-model" value=${a.modelId} onChange=${(e: Event) => set({ modelId: valueOf(e) })}>
          ${offered.map((m) => html`<option value=${m}>${m}</option>`)}</select></div>
      <div class="field"><label for="c-proc">${t("Only for process (key; empty: any)")}</label>
        <input id="c-proc" value=${a.processKey ?? ""} onInput=${(e: Event) => set({ processKey: valueOf(e) })} /></div>
    </div>
    <div class="field"><label for="c-instr">${t("Instructions")}</label>
      <textarea id="c-instr" required rows="6" maxlength="20000" value=${a.instructions}
        onInput=${(e: Event) => set({ instructions: valueOf(e) })}></textarea></div>
    <fieldset><legend>${t("Tools")}</legend>
      ${TOOLS.map(
        ([tool, label]) => html`<label class="choice"><input type="checkbox" checked=${a.tools.includes(tool)}
        onChange=${(e: Event) => set({ tools: toggle(a.tools, tool, checkedOf(e)) })} /> ${label()} <code>${tool}</code></label>`,
      )}
    </fieldset>
    <fieldset><legend>${t("Knowledge bases")}</legend>
      ${bases.length ? null : html`<p class="hint">${t("None yet: create one under Knowledge bases.")}</p>`}
      ${bases.map(
        (b) => html`<label class="choice"><input type="checkbox" checked=${a.knowledgeBaseIds.includes(b.id)}
        onChange=${(e: Event) => set({ knowledgeBaseIds: toggle(a.knowledgeBaseIds, b.id, checkedOf(e)) })} /> ${b.name}</label>`,
      )}
    </fieldset>
    <div class="row-fields">
      <div class="field"><label for="c-cms">${t("CMS clearance")}</label>
        <select id="c-cms" value=${a.cmsClearance} onChange=${(e: Event) => set({ cmsClearance: valueOf(e) as Agent["cmsClearance"] })}>
          ${["PUBLIC", "SECRET", "TOP_SECRET"].map((c) => html`<option value=${c}>${levelLabel(c)}</option>`)}</select></div>
      <div class="field"><label for="c-steps">${t("Most tool steps per run")}</label>
        <input id="c-steps" type="number" min="0" max="50" required value=${a.limits.maxToolSteps}
          onInput=${(e: Event) => set({ limits: { ...a.limits, maxToolSteps: Number(valueOf(e)) } })} /></div>
      <div class="field"><label for="c-timeout">${t("Time limit (ms)")}</label>
        <input id="c-timeout" type="number" min="100" max="600000" required value=${a.limits.timeoutMs}
          onInput=${(e: Event) => set({ limits: { ...a.limits, timeoutMs: Number(valueOf(e)) } })} /></div>
    </div>
    <div class="field"><label for="c-out">${t("Output variables (one per line: name: type description)")}</label>
      <textarea id="c-out" class="code" rows="3" value=${outputs} onInput=${(e: Event) => setOutputs(valueOf(e))}></textarea></div>
    <button type="submit" class="primary">${t("Save agent")}</button>
  </form>`;
}

/** One agent (GET /a/agents/{key}): its configuration (PUT; a global one only by an SA), the steps using it, the playground. */
export function AgentPage({ agentKey }: { agentKey: string }) {
  const agent = useLoad(() => api<Agent>("GET", `/a/agents/${encodeURIComponent(agentKey)}`), [agentKey]);
  const models = useLoad(() => api<AiModels>("GET", "/a/ai/models"));
  const bases = useLoad(() => api<KnowledgeBase[]>("GET", "/a/knowledge-bases"));
  const steps = useLoad(
    () =>
      api<{ processKey: string; activityId: string }[]>("GET", `/a/agents/${encodeURIComponent(agentKey)}/attachments`),
    [agentKey],
  );
  if (!agent.data || !models.data) return html`<${Pending} error=${agent.error ?? models.error} />`;
  const a = agent.data;
  const writable = !a.isGlobal || hasRole("SUPER_ADMIN");
  return html`<section>
    <p><a href="#/settings/agents">← ${t("Agents")}</a></p>
    <h1>${a.name} <small><code>${a.key}</code></small></h1>
    ${
      writable
        ? html`<${AgentForm} agent=${a} models=${models.data} bases=${bases.data ?? []} onSaved=${agent.reload} key=${a.key} />`
        : html`<p class="hint">${t("A global agent: only an SA changes it.")}</p>`
    }
    <h2>${t("Used by")}</h2>
    ${
      (steps.data ?? []).length
        ? html`<ul class="plain">${(steps.data ?? []).map((s) => html`<li>${t("process")} <code>${s.processKey}</code>, ${t("step")} <code>${s.activityId}</code></li>`)}</ul>`
        : html`<p class="empty">${t("No process step names this agent yet: set it on a service task in the modeler.")}</p>`
    }
    <${AgentPlayground} agentKey=${a.key} />
  </section>`;
}
