import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { plural, t } from "../../i18n";

interface Template {
  key: string;
  name: string;
  xml: string;
  enabled: boolean;
  version: number;
  subscribers: number;
  updatedAt: string;
}
type Replication = { APPLIED: number; UP_TO_DATE: number; DIVERGED: number };
const companies = (n: number) => plural(n, "{n} company", "{n} companies");

/** The XML of a template (BPMN, or DMN with `kind`), from a chosen file (read in the browser) or pasted. */
export function XmlField({
  id,
  value,
  onValue,
  required,
  kind = "BPMN",
}: {
  id: string;
  value: string;
  onValue(v: string): void;
  required: boolean;
  kind?: "BPMN" | "DMN";
}) {
  const read = (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    if (file) void file.text().then(onValue);
  };
  return html`<div class="field"><label for=${`${id}-file`}>${t("{kind} file", { kind })}</label>
      <input id=${`${id}-file`} type="file" accept=${kind === "DMN" ? ".dmn,.xml" : ".bpmn,.xml"} onChange=${read} /></div>
    <div class="field"><label for=${`${id}-xml`}>${t("or its XML")}</label>
      <textarea id=${`${id}-xml`} class="code" rows="4" required=${required} value=${value}
        onInput=${(e: Event) => onValue(valueOf(e))}></textarea></div>`;
}

function NewTemplate({ onCreated }: { onCreated(p: Template): void }) {
  const [key, setKey] = useState("");
  const [name, setName] = useState("");
  const [xml, setXml] = useState("");
  const [enabled, setEnabled] = useState(true);
  const { error, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      onCreated(
        await api<Template>("POST", "/admin/process-templates", { key: key.trim(), name: name.trim(), xml, enabled }),
      );
      setKey("");
      setName("");
      setXml("");
    });
  };
  return html`<form class="inline" onSubmit=${create} aria-labelledby="new-pt">
    <h2 id="new-pt">${t("New template")}</h2>
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="pt-key">${t("Key (the process id in the file)")}</label>
        <input id="pt-key" required maxlength="100" value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>
      <div class="field"><label for="pt-name">${t("Name")}</label>
        <input id="pt-name" required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
    </div>
    <${XmlField} id="pt" value=${xml} onValue=${setXml} required=${true} />
    <label class="choice"><input type="checkbox" checked=${enabled} onChange=${(e: Event) => setEnabled(checkedOf(e))} />
      ${t("Subscribe new companies when they are created")}</label>
    <button type="submit" class="primary">${t("Create template")}</button>
  </form>`;
}

/** A new version of a template's XML (PUT): deployed into every subscriber that has not diverged. */
function NewVersion({ p, onSaved }: { p: Template; onSaved(r: Replication): void }) {
  const [xml, setXml] = useState("");
  const { error, run } = useAction();
  const save = (e: Event) => {
    e.preventDefault();
    return run(async () =>
      onSaved(
        (
          await api<{ replication: Replication }>("PUT", `/admin/process-templates/${encodeURIComponent(p.key)}`, {
            xml,
          })
        ).replication,
      ),
    );
  };
  return html`<form class="inline" onSubmit=${save} aria-label=${t("New version of {name}", { name: p.name })}>
    <h2>${t("New version of {name}", { name: p.name })}</h2>
    <${Alert} error=${error} />
    <${XmlField} id="ptv" value=${xml} onValue=${setXml} required=${true} />
    <button type="submit" class="primary">${t("Publish version {n}", { n: p.version + 1 })}</button>
  </form>`;
}

/** SA: the global process templates (/admin/process-templates): create, publish a new version, switch, delete. */
export function ProcessTemplatesPage() {
  const list = useLoad(() => api<Template[]>("GET", "/admin/process-templates"));
  const [versioning, setVersioning] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const after = (message: string) => {
    setVersioning(null);
    setDone(message);
    list.reload();
  };
  const setEnabled = (p: Template, enabled: boolean) =>
    run(() =>
      api("PUT", `/admin/process-templates/${encodeURIComponent(p.key)}`, { enabled }).then(() =>
        after(
          enabled
            ? t("{name}: new companies are subscribed.", { name: p.name })
            : t("{name}: new companies are no longer subscribed.", { name: p.name }),
        ),
      ),
    );
  const remove = (p: Template) => {
    if (
      !confirm(
        t("Delete the template “{name}”? Subscribed companies keep their processes but get no more versions.", {
          name: p.name,
        }),
      )
    )
      return;
    return run(() =>
      api("DELETE", `/admin/process-templates/${encodeURIComponent(p.key)}`).then(() =>
        after(t("{name} deleted.", { name: p.name })),
      ),
    );
  };
  const rows = list.data ?? [];
  const current = rows.find((p) => p.key === versioning);
  return html`<section>
    <h1>${t("Process templates")}</h1>
    <${NewTemplate} onCreated=${(p: Template) => after(t("Template {name} created (version {version}).", { name: p.name, version: p.version }))} />
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${
      current
        ? html`<${NewVersion} p=${current} key=${current.key} onSaved=${(r: Replication) =>
            after(
              t("{name} updated: applied in {companies}, {upToDate} already up to date, {diverged} diverged.", {
                name: current.name,
                companies: companies(r.APPLIED),
                upToDate: r.UP_TO_DATE,
                diverged: r.DIVERGED,
              }),
            )} />
        <button type="button" onClick=${() => setVersioning(null)}>${t("Cancel")}</button>`
        : null
    }
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">${t("No templates yet. Create one above from a BPMN file; companies then subscribe to it.")}</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Global process templates")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Key")}</th><th>${t("Version")}</th><th>${t("Subscribers")}</th><th>${t("New companies")}</th><th>${t("Updated")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map(
        (
          p,
        ) => html`<tr data-key=${p.key}><td>${p.name}</td><td><code>${p.key}</code></td><td>v${p.version}</td><td>${p.subscribers}</td>
          <td>${p.enabled ? t("subscribed") : t("not subscribed")}</td><td>${when(p.updatedAt)}</td>
          <td class="actions-cell"><button type="button" aria-label=${t("New version of {name}", { name: p.name })} onClick=${() => setVersioning(p.key)}>${t("New version")}</button>
            <button type="button" aria-label=${p.enabled ? t("Stop offering {name} to new companies", { name: p.name }) : t("Offer {name} to new companies", { name: p.name })} onClick=${() => setEnabled(p, !p.enabled)}>
              ${p.enabled ? t("Stop subscribing new") : t("Subscribe new")}</button>
            <button type="button" class="danger" aria-label=${t("Delete {name}", { name: p.name })} onClick=${() => remove(p)}>${t("Delete")}</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
