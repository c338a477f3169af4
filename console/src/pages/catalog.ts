import { useState } from "preact/hooks";
import { ApiError, api, session } from "../api";
import { FormView } from "../form/form-view";
import type { Values } from "../form/model";
import { html } from "../html";
import { t } from "../i18n";
import { go, setFlash } from "../router";
import { Pending, useLoad } from "../use-load";

export interface Definition {
  key: string;
  name: string;
  type: string;
  version: number;
  publishedVersion: number | null;
  suspended: boolean;
  enabled: boolean;
  startFormKey: string | null;
}
interface FormDetail {
  schema: unknown;
  publishedVersion: { schema: unknown } | null;
}
interface Started {
  id: string;
  businessKey: string | null;
  activeTasks: { id: string; name: string; assignee: string | null }[];
}

const startable = (d: Definition) => d.enabled && !d.suspended;

/** The processes and cases the caller may start (enabled in the catalog, not suspended). */
export function CatalogPage() {
  const defs = useLoad(() => api<Definition[]>("GET", "/a/definitions"));
  if (!defs.data) return html`<${Pending} error=${defs.error} />`;
  const list = defs.data.filter(startable);
  return html`<section>
    <h1>${t("Start a process")}</h1>
    ${list.length === 0 ? html`<p>${t("No process can be started yet.")}</p>` : null}
    <ul class="cards">
      ${list.map(
        (d) => html`<li><a class="card" href=${`#/processes/${encodeURIComponent(d.key)}`}>
          <strong>${d.name || d.key}</strong> <span class="muted">${d.type} · v${d.publishedVersion ?? d.version}</span></a></li>`,
      )}
    </ul>
  </section>`;
}

/** The start form of the published form version (else the latest); a form the tenant lacks means no fields. */
export function startForm(d: Definition): Promise<unknown> {
  return d.startFormKey ? formOf(d.key, d.startFormKey) : Promise.resolve({});
}

/** A process's form `formKey`: its published version's schema, else the latest; none (404) means no fields. */
export async function formOf(processKey: string, formKey: string): Promise<unknown> {
  try {
    const f = await api<FormDetail>(
      "GET",
      `/a/definitions/${encodeURIComponent(processKey)}/forms/${encodeURIComponent(formKey)}`,
    );
    return f.publishedVersion?.schema ?? f.schema;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return {};
    throw e;
  }
}

/**
 * Starts an instance (POST /a/instances) with the start form's values and an optional business key. The answer's
 * business key is shown; when one of its active tasks is the caller's, the console opens it at once.
 */
export function StartPage({ processKey }: { processKey: string }) {
  const loaded = useLoad(async () => {
    const d = await api<Definition>("GET", `/a/definitions/${encodeURIComponent(processKey)}`);
    return { d, schema: await startForm(d) };
  }, [processKey]);
  const [businessKey, setBusinessKey] = useState("");
  const [started, setStarted] = useState<Started | null>(null);
  if (!loaded.data) return html`<${Pending} error=${loaded.error} />`;
  const { d, schema } = loaded.data;
  const start = async (variables: Values) => {
    const s = await api<Started>("POST", "/a/instances", {
      definitionKey: d.key,
      businessKey: businessKey.trim() || undefined,
      variables,
    });
    const mine = s.activeTasks.find((a) => a.assignee === session()?.user.id);
    if (mine) {
      setFlash(t("Started {key}. Your first task is below.", { key: s.businessKey ?? s.id }));
      go(`/tasks/${mine.id}`);
    } else setStarted(s);
  };
  if (started)
    return html`<section>
      <h1>${d.name || d.key}</h1>
      <div class="notice" role="status">${t("Started with business key")} <strong>${started.businessKey ?? "—"}</strong>.</div>
      <p>${started.activeTasks.length ? t("Its next step is with other people.") : t("It has no task waiting on a person.")}</p>
      <p><a href=${`#/instances/${started.id}`}>${t("Open the instance")}</a> · <a href="#/processes">${t("Start another")}</a>${" · "}<a
        href="#/tasks">${t("Tasks")}</a></p>
    </section>`;
  return html`<section class="narrow">
    <h1>${d.name || d.key}</h1>
    <div class="field">
      <label for="bk">${t("Business key")} <span class="muted">${t("(optional; generated when empty)")}</span></label>
      <input id="bk" value=${businessKey} onInput=${(e: Event) => setBusinessKey((e.currentTarget as HTMLInputElement).value)} />
    </div>
    <${FormView} schema=${schema} submitLabel=${t("Start")} onSubmit=${start} />
  </section>`;
}
