import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

export interface Agent {
  key: string;
  name: string;
  processKey: string | null;
  isGlobal: boolean;
  modelId: string;
  instructions: string;
  tools: string[];
  knowledgeBaseIds: string[];
  cmsClearance: "PUBLIC" | "SECRET" | "TOP_SECRET";
  outputVariables: { name: string; type: string; description?: string }[];
  limits: { maxToolSteps: number; timeoutMs: number };
}

export interface AiModels {
  active: boolean;
  chatModel: string | null;
  models: { id: string; kind: "chat" | "embedding" }[];
}

export const chatModels = (m: AiModels) => m.models.filter((x) => x.kind === "chat").map((x) => x.id);

function NewAgent({ models }: { models: AiModels }) {
  const [key, setKey] = useState("");
  const [name, setName] = useState("");
  const [modelId, setModelId] = useState(models.chatModel ?? chatModels(models)[0] ?? "");
  const [instructions, setInstructions] = useState("");
  const { error, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const a = await api<Agent>("POST", "/a/agents", { key: key.trim(), name: name.trim(), modelId, instructions });
      location.hash = `#/settings/agents/${encodeURIComponent(a.key)}`;
    });
  };
  return html`<form class="inline" onSubmit=${create} aria-labelledby="new-a">
    <h2 id="new-a">${t("New agent")}</h2>
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="a-key">${t("Key")}</label>
        <input id="a-key" required maxlength="100" pattern="[A-Za-z][A-Za-z0-9_.\\-]*" value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>
      <div class="field"><label for="a-name">${t("Name")}</label>
        <input id="a-name" required maxlength="200" value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for="a-model">${t("Model")}</label>
        <select id="a-model" required value=${modelId} onChange=${(e: Event) => setModelId(valueOf(e))}>
          ${chatModels(models).map((m) => html`<option value=${m}>${m}</option>`)}</select></div>
    </div>
    <div class="field"><label for="a-instr">${t("Instructions")}</label>
      <textarea id="a-instr" required rows="4" maxlength="20000" value=${instructions}
        onInput=${(e: Event) => setInstructions(valueOf(e))}></textarea></div>
    <button type="submit" class="primary">${t("Create agent")}</button>
  </form>`;
}

/**
 * AI agents (Modeler; GET /a/agents, the company's and the global ones): create one (then its page: configuration and
 * playground), delete (confirmed; the API refuses while a process step uses it). Without an active model the API
 * refuses new agents, so the page says so instead of offering the form.
 */
export function AgentsPage() {
  const list = useLoad(() => api<Agent[]>("GET", "/a/agents"));
  const models = useLoad(() => api<AiModels>("GET", "/a/ai/models"));
  const { error, run } = useAction();
  const remove = (a: Agent) => {
    if (!confirm(t("Delete the agent “{name}”? This cannot be undone.", { name: a.name }))) return;
    return run(() => api("DELETE", `/a/agents/${encodeURIComponent(a.key)}`).then(list.reload));
  };
  const rows = list.data ?? [];
  const active = models.data?.active;
  return html`<section>
    <h1>${t("Agents")}</h1>
    <p class="hint">${t("An agent is an AI step: a model with instructions, tools and knowledge that a service task runs.")}
      <a href="#/ai-task-failures">${t("Failed AI steps")}</a></p>
    ${!models.data ? html`<${Pending} error=${models.error} />` : null}
    ${models.data && !active ? html`<p class="warn" role="status">${t("No AI model is configured on this service, so no agent can be created or run. The operator sets one (AI_BASE_URL and AI_MODEL).")}</p>` : null}
    ${models.data && active ? html`<${NewAgent} models=${models.data} />` : null}
    <${Alert} error=${error} />
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${active ? t("No agents yet. Create one above, then try it in its playground and name it on a service task.") : t("No agents yet.")}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Agents")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Key")}</th><th>${t("Model")}</th><th>${t("Tools")}</th><th>${t("Scope")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map(
        (
          a,
        ) => html`<tr data-key=${a.key}><td><a href=${`#/settings/agents/${encodeURIComponent(a.key)}`}>${a.name}</a></td>
          <td><code>${a.key}</code></td><td>${a.modelId}</td><td>${a.tools.join(", ") || t("none")}</td>
          <td>${a.isGlobal ? t("every company") : a.processKey ? html`${t("process")} <code>${a.processKey}</code>` : t("this company")}</td>
          <td class="actions-cell">${
            !a.isGlobal || hasRole("SUPER_ADMIN")
              ? html`<button type="button" class="danger" aria-label=${t("Delete {name}", { name: a.name })} onClick=${() => remove(a)}>${t("Delete")}</button>`
              : html`<small>${t("global")}</small>`
          }</td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
