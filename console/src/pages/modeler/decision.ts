import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { t } from "../../i18n";

interface Input {
  id: string;
  label?: string;
  expression: string;
  typeRef?: string;
}
interface Table {
  hitPolicy: string;
  inputs: Input[];
  outputs: { id: string; name?: string; label?: string }[];
  rules: { id: string; inputEntries: string[]; outputEntries: string[]; description?: string }[];
}
interface Decision {
  key: string;
  name: string;
  version: number;
  table: Table | null;
}
interface Evaluated {
  result: unknown;
  matchedRules: string[];
}

const NUMERIC = /^(number|integer|int|long|double|decimal)$/i;
/** An input whose expression is a plain variable path (`amount`, `customer.age`) gets a field of its own. */
const PATH = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/;

/** Sets `value` at a dotted path of `target`, creating the objects on the way. */
function setPath(target: Record<string, unknown>, path: string, value: unknown) {
  const parts = path.split(".");
  let node = target;
  for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1]] = value;
}

/**
 * The variables sent to evaluate: each input field typed by its typeRef (numbers parsed, booleans from a checkbox,
 * empty left out), over the optional JSON of further variables. Throws a readable message for what cannot be read.
 */
export function evaluationVariables(inputs: Input[], raw: Record<string, string | boolean>, extra: string) {
  let vars: Record<string, unknown> = {};
  if (extra.trim()) {
    try {
      vars = JSON.parse(extra);
    } catch {
      throw new Error(t("Further variables: enter a JSON object."));
    }
    if (vars === null || typeof vars !== "object" || Array.isArray(vars))
      throw new Error(t("Further variables: enter a JSON object."));
  }
  for (const i of inputs.filter((x) => PATH.test(x.expression))) {
    const r = raw[i.expression];
    if (i.typeRef === "boolean") setPath(vars, i.expression, r === true);
    else if (typeof r === "string" && r.trim() !== "") {
      const n = Number(r.replace(",", "."));
      if (NUMERIC.test(i.typeRef ?? "") && !Number.isFinite(n))
        throw new Error(t("{input}: enter a number.", { input: i.label ?? i.expression }));
      setPath(vars, i.expression, NUMERIC.test(i.typeRef ?? "") ? n : r);
    }
  }
  return vars;
}

function Rules({ table, matched }: { table: Table; matched: string[] }) {
  return html`<table class="grid dmn"><caption>${t("Rules (hit policy {policy}); matched rules are marked", { policy: table.hitPolicy })}</caption>
    <thead><tr><th>#</th>${table.inputs.map((i) => html`<th>${i.label ?? i.expression}</th>`)}
      ${table.outputs.map((o) => html`<th>${o.label ?? o.name ?? o.id}</th>`)}</tr></thead>
    <tbody>${table.rules.map(
      (r, n) => html`<tr class=${matched.includes(r.id) ? "matched" : ""} data-rule=${r.id}>
        <td>${n + 1}${matched.includes(r.id) ? html` <strong>✓<span class="sr-only"> ${t("matched")}</span></strong>` : null}</td>
        ${r.inputEntries.map((e) => html`<td><code>${e}</code></td>`)}${r.outputEntries.map((e) => html`<td><code>${e}</code></td>`)}</tr>`,
    )}</tbody></table>`;
}

/** A decision table with evaluate-and-try: its inputs in, POST /a/decisions/{key}/evaluate, the result and matched rules out. */
export function DecisionPage({ decisionKey }: { decisionKey: string }) {
  const d = useLoad(() => api<Decision>("GET", `/a/decisions/${encodeURIComponent(decisionKey)}`), [decisionKey]);
  const [raw, setRaw] = useState<Record<string, string | boolean>>({});
  const [extra, setExtra] = useState("");
  const [answer, setAnswer] = useState<Evaluated | null>(null);
  const { error, run } = useAction();
  if (!d.data) return html`<${Pending} error=${d.error} />`;
  const table = d.data.table;
  const inputs = (table?.inputs ?? []).filter((i) => PATH.test(i.expression));
  const evaluate = (e: Event) => {
    e.preventDefault();
    setAnswer(null);
    return run(async () => {
      const variables = evaluationVariables(table?.inputs ?? [], raw, extra);
      setAnswer(
        await api<Evaluated>("POST", `/a/decisions/${encodeURIComponent(decisionKey)}/evaluate`, { variables }),
      );
    });
  };
  return html`<section>
    <p><a href="#/modeler">← ${t("Modeler")}</a></p>
    <h1>${d.data.name} <span class="muted">${`${d.data.key} · v${d.data.version}`}</span></h1>
    <p><a class="button-link" href=${`#/modeler/decisions/${encodeURIComponent(decisionKey)}/edit`}>${t("Edit the table")}</a></p>
    <form class="inline" onSubmit=${evaluate} aria-labelledby="try-h">
      <h2 id="try-h">${t("Try it")}</h2>
      <${Alert} error=${error} />
      <div class="row-fields">
        ${inputs.map((i) => {
          const id = `in-${i.id}`;
          return i.typeRef === "boolean"
            ? html`<div class="field field-checkbox"><label for=${id}>${i.label ?? i.expression}</label>
                <input id=${id} type="checkbox" checked=${raw[i.expression] === true}
                  onChange=${(e: Event) => setRaw({ ...raw, [i.expression]: checkedOf(e) })} /></div>`
            : html`<div class="field"><label for=${id}>${i.label ?? i.expression} <span class="muted">(${i.expression}${i.typeRef ? `: ${i.typeRef}` : ""})</span></label>
                <input id=${id} inputmode=${NUMERIC.test(i.typeRef ?? "") ? "decimal" : "text"} value=${raw[i.expression] ?? ""}
                  onInput=${(e: Event) => setRaw({ ...raw, [i.expression]: valueOf(e) })} /></div>`;
        })}
      </div>
      <div class="field"><label for="in-extra">${t("Further variables (JSON object, optional)")}</label>
        <textarea id="in-extra" rows="2" value=${extra} onInput=${(e: Event) => setExtra(valueOf(e))} /></div>
      <button type="submit" class="primary">${t("Evaluate")}</button>
    </form>
    ${
      answer
        ? html`<div class="notice result" role="status"><h2>${t("Result")}</h2><pre>${JSON.stringify(answer.result, null, 2)}</pre>
            <p>${answer.matchedRules.length ? t("Matched: {rules}", { rules: answer.matchedRules.join(", ") }) : t("No rule matched.")}</p></div>`
        : null
    }
    ${table ? html`<${Rules} table=${table} matched=${answer?.matchedRules ?? []} />` : html`<p>${t("This decision has no table to show.")}</p>`}
  </section>`;
}
