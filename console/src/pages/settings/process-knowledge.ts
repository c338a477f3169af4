import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";
import type { KnowledgeBase } from "./knowledge-bases";

/**
 * The knowledge bases linked to a process (GET /a/knowledge-bases/process/{key}): what its AI steps may search. Link
 * one of the company's or the global bases; unlink (confirmed). A linked base cannot be deleted, so this is also
 * where a base is freed.
 */
export function ProcessKnowledge({ processKey }: { processKey: string }) {
  const key = encodeURIComponent(processKey);
  const linked = useLoad(() => api<KnowledgeBase[]>("GET", `/a/knowledge-bases/process/${key}`), [processKey]);
  const all = useLoad(() => api<KnowledgeBase[]>("GET", "/a/knowledge-bases"));
  const [choice, setChoice] = useState("");
  const { error, run } = useAction();
  const link = (e: Event) => {
    e.preventDefault();
    return run(() =>
      api("POST", `/a/knowledge-bases/process/${key}/link/${choice}`).then(() => {
        setChoice("");
        linked.reload();
      }),
    );
  };
  const unlink = (kb: KnowledgeBase) => {
    if (
      !confirm(
        t("Unlink “{name}” from {process}? Its AI steps no longer search it.", { name: kb.name, process: processKey }),
      )
    )
      return;
    return run(() => api("DELETE", `/a/knowledge-bases/process/${key}/unlink/${kb.id}`).then(linked.reload));
  };
  const rows = linked.data ?? [];
  const free = (all.data ?? []).filter((b) => !rows.some((r) => r.id === b.id));
  return html`<section aria-labelledby="pk-h">
    <h2 id="pk-h">${t("Knowledge bases")}</h2>
    <${Alert} error=${error} />
    ${!linked.data ? html`<${Pending} error=${linked.error} />` : null}
    ${linked.data && !rows.length ? html`<p class="empty">${t("No knowledge base is linked: its AI steps search none. Link one below.")}</p>` : null}
    <ul class="plain">${rows.map(
      (kb) => html`<li data-name=${kb.name}><a href=${`#/settings/knowledge/${kb.id}`}>${kb.name}</a>${" "}
        <button type="button" class="danger" aria-label=${t("Unlink {name}", { name: kb.name })} onClick=${() => unlink(kb)}>${t("Unlink")}</button></li>`,
    )}</ul>
    ${
      free.length
        ? html`<form class="inline add-member" onSubmit=${link} aria-label=${t("Link a knowledge base")}>
          <label for="pk-base">${t("Knowledge base")}</label>
          <select id="pk-base" required value=${choice} onChange=${(e: Event) => setChoice(valueOf(e))}>
            <option value="">${t("choose…")}</option>${free.map((b) => html`<option value=${b.id}>${b.name}</option>`)}</select>
          <button type="submit">${t("Link")}</button></form>`
        : null
    }
  </section>`;
}
