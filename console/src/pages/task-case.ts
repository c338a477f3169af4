import { api } from "../api";
import { displayValue, type Field, fieldsOf, valueFields } from "../form/model";
import { when } from "../format";
import { html } from "../html";
import { t } from "../i18n";
import { type Person, Who } from "../people";
import { Pending, useLoad } from "../use-load";
import { type Definition, formOf, startForm } from "./catalog";
import { type Activity, HistoryTable } from "./instance-history";

/** GET /a/instances/{id} as the task page reads it. */
export interface Case {
  businessKey: string | null;
  startTime: string;
  startedBy: string | null;
  startedByUser?: Person | null;
  variables: Record<string, unknown>;
}
/** A task of the case, as GET /a/history/instances/{id} lists them. */
interface CaseTask {
  id: string;
  name: string;
  state: string;
  formKey: string | null;
  completedAt: string | null;
  completedBy: string | null;
  completedByUser?: Person | null;
}
interface EarlierTask extends CaseTask {
  fields: Field[];
}

const shown = (v: unknown) => (v !== null && typeof v === "object" ? JSON.stringify(v) : String(v));

/** A form's value fields with the case's values, by label, read-only (fields the case has no value for are left out). */
function FormAnswers({
  fields,
  values,
  caption,
}: {
  fields: Field[];
  values: Record<string, unknown>;
  caption: string;
}) {
  const rows = valueFields(fields)
    .map(({ field }) => field)
    .filter((f) => f.type !== "hidden" && f.key !== undefined && values[f.key] !== undefined);
  if (!rows.length) return html`<p class="muted">${t("{caption}: no values.", { caption })}</p>`;
  return html`<table class="grid case-data"><caption>${caption}</caption>
    <tbody>${rows.map(
      (f) => html`<tr key=${f.key}><th scope="row">${f.label || f.key}</th>
        <td>${typeof values[f.key as string] === "object" ? shown(values[f.key as string]) : displayValue(f, values[f.key as string])}</td></tr>`,
    )}</tbody></table>`;
}

/**
 * The case at a glance, read-only: business key, who started it and when, the start form's answers by label, each
 * earlier task of the case (who completed it and when, its form's fields with the case's values), the other data, and
 * the history. Whoever sees the instance sees its earlier tasks (GET /a/history/instances/{id}), also another
 * person's. Values are the case's current ones (a later step may have changed a value an earlier task gave), labels
 * those of the form's published version.
 */
export function CasePanel({
  c,
  taskId,
  instanceId,
  definitionKey,
}: {
  c: Case;
  taskId: string;
  instanceId: string;
  definitionKey: string;
}) {
  const more = useLoad(async () => {
    const [history, detail, def] = await Promise.all([
      api<Activity[]>("GET", `/a/history/instances/${instanceId}/activities`).catch(() => [] as Activity[]),
      api<{ tasks: CaseTask[] }>("GET", `/a/history/instances/${instanceId}`).catch(() => ({ tasks: [] })),
      api<Definition>("GET", `/a/definitions/${encodeURIComponent(definitionKey)}`).catch(() => null),
    ]);
    // Each form once: the labels of the earlier tasks' forms (their published version, else the latest).
    const done = detail.tasks.filter((task) => task.id !== taskId && task.state === "COMPLETED");
    const keys = [...new Set(done.flatMap((task) => (task.formKey ? [task.formKey] : [])))];
    const forms = new Map(
      await Promise.all(
        keys.map(async (k) => [k, fieldsOf(await formOf(definitionKey, k).catch(() => ({})))] as const),
      ),
    );
    const earlier: EarlierTask[] = done.map((task) => ({
      ...task,
      fields: (task.formKey && forms.get(task.formKey)) || [],
    }));
    const start = def ? await startForm(def).catch(() => ({})) : {};
    return { history, earlier, start: fieldsOf(start) };
  }, [instanceId, taskId]);
  const vars = Object.fromEntries(Object.entries(c.variables).filter(([k]) => !k.startsWith("_")));
  const onForms = new Set(
    [...(more.data?.start ?? []), ...(more.data?.earlier ?? []).flatMap((task) => task.fields)].flatMap((f) =>
      valueFields([f]).map(({ field }) => field.key),
    ),
  );
  const other = Object.entries(vars).filter(([k]) => !onForms.has(k));
  return html`<section class="case" aria-labelledby="case-h">
    <h2 id="case-h">${t("The case")}</h2>
    <dl class="facts">
      <div><dt>${t("Business key")}</dt><dd>${c.businessKey ?? "—"}</dd></div>
      <div><dt>${t("Started")}</dt><dd>${t("{date} by", { date: when(c.startTime) })} <${Who} id=${c.startedBy} person=${c.startedByUser} none="the system" /></dd></div>
    </dl>
    ${!more.data ? html`<${Pending} error=${more.error} />` : null}
    ${more.data?.start.length ? html`<${FormAnswers} fields=${more.data.start} values=${vars} caption=${t("The request (start form)")} />` : null}
    ${(more.data?.earlier ?? []).map(
      (task) => html`<div class="earlier-task" data-task=${task.id} key=${task.id}>
        <h3>${task.name}</h3>
        <p class="muted">${task.completedAt ? t("Completed {date} by", { date: when(task.completedAt) }) : t("Completed by")} <${Who} id=${task.completedBy} person=${task.completedByUser} none="the system" /></p>
        <${FormAnswers} fields=${task.fields} values=${vars} caption=${t("Data of “{task}”", { task: task.name })} />
      </div>`,
    )}
    ${
      more.data && other.length
        ? html`<table class="grid case-data"><caption>${t("Other data of the case (read-only)")}</caption>
            <tbody>${other.map(([k, v]) => html`<tr key=${k}><th scope="row">${k}</th><td>${shown(v)}</td></tr>`)}</tbody></table>`
        : null
    }
    ${more.data ? html`<h3>${t("History")}</h3><${HistoryTable} rows=${more.data.history} />` : null}
  </section>`;
}
