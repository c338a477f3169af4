import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { useAction } from "../../use-load";
import { levelLabel } from "./cms-collections";

interface PlaygroundResult {
  outputs: Record<string, unknown>;
  toolCalls: { tool: string; outcome: string; detail: string | null }[];
  clearance: string;
}

/** Runs the agent on inputs typed as JSON, without an instance (POST /a/agents/{key}/playground): outputs and tool calls. */
export function AgentPlayground({ agentKey }: { agentKey: string }) {
  const [inputs, setInputs] = useState("{}");
  const [result, setResult] = useState<PlaygroundResult | null>(null);
  const { error, run } = useAction();
  const go = (e: Event) => {
    e.preventDefault();
    setResult(null);
    return run(async () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(inputs || "{}");
      } catch {
        throw new Error(t('The inputs are not JSON: write an object such as {"amount": 250}.'));
      }
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
        throw new Error(t('The inputs must be a JSON object such as {"amount": 250}.'));
      setResult(
        await api<PlaygroundResult>("POST", `/a/agents/${encodeURIComponent(agentKey)}/playground`, { inputs: parsed }),
      );
    });
  };
  return html`<form class="inline" onSubmit=${go} aria-labelledby="a-play">
    <h2 id="a-play">${t("Playground")}</h2>
    <p class="hint">${t("Runs the agent as saved, on these inputs, without starting a process. It spends the company's AI quota.")}</p>
    <${Alert} error=${error} />
    <div class="field"><label for="p-in">${t("Inputs (JSON object)")}</label>
      <textarea id="p-in" class="code" rows="4" value=${inputs} onInput=${(e: Event) => setInputs(valueOf(e))}></textarea></div>
    <button type="submit" class="primary">${t("Run")}</button>
    ${
      result
        ? html`<div role="status" aria-label=${t("Playground result")}>
          <h3>${t("Outputs")}</h3><pre data-testid="play-outputs">${JSON.stringify(result.outputs, null, 2)}</pre>
          <p class="hint">${t("CMS clearance applied: {level}", { level: levelLabel(result.clearance) })}</p>
          ${
            result.toolCalls.length
              ? html`<table class="grid"><caption>${t("Tool calls")}</caption><thead><tr><th>${t("Tool")}</th><th>${t("Outcome")}</th><th>${t("Detail")}</th></tr></thead>
              <tbody>${result.toolCalls.map((c) => html`<tr><td><code>${c.tool}</code></td><td>${c.outcome}</td><td>${c.detail ?? ""}</td></tr>`)}</tbody></table>`
              : html`<p>${t("No tool was called.")}</p>`
          }</div>`
        : null
    }
  </form>`;
}
