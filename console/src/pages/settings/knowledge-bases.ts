import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

export interface KnowledgeBase {
  id: string;
  name: string;
  description: string | null;
  isGlobal: boolean;
  createdAt: string;
}

function NewBase({ onCreated }: { onCreated(): void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [isGlobal, setGlobal] = useState(false);
  const { error, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const kb = await api<KnowledgeBase>("POST", "/a/knowledge-bases", {
        name: name.trim(),
        description: description.trim() || null,
        ...(isGlobal ? { isGlobal } : {}),
      });
      setName("");
      setDescription("");
      onCreated();
      location.hash = `#/settings/knowledge/${kb.id}`;
    });
  };
  return html`<form class="inline" onSubmit=${create} aria-labelledby="new-kb">
    <h2 id="new-kb">${t("New knowledge base")}</h2>
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="kb-name">${t("Name")}</label>
        <input id="kb-name" required maxlength="200" value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for="kb-desc">${t("Description")}</label>
        <input id="kb-desc" maxlength="2000" value=${description} onInput=${(e: Event) => setDescription(valueOf(e))} /></div>
    </div>
    ${
      hasRole("SUPER_ADMIN")
        ? html`<label class="choice"><input type="checkbox" checked=${isGlobal} onChange=${(e: Event) => setGlobal(checkedOf(e))} />
          ${t("Global (offered to every company)")}</label>`
        : null
    }
    <button type="submit" class="primary">${t("Create knowledge base")}</button>
  </form>`;
}

/**
 * Knowledge bases (Manager or Modeler; GET /a/knowledge-bases, the company's and the global ones): create one (then its
 * page, to upload documents), open, delete (confirmed; the API refuses while a process is linked, and says so).
 */
export function KnowledgeBasesPage() {
  const list = useLoad(() => api<KnowledgeBase[]>("GET", "/a/knowledge-bases"));
  const { error, run } = useAction();
  const remove = (kb: KnowledgeBase) => {
    if (
      !confirm(
        t("Delete the knowledge base “{name}” with all its documents? This cannot be undone.", { name: kb.name }),
      )
    )
      return;
    return run(() => api("DELETE", `/a/knowledge-bases/${kb.id}`).then(list.reload));
  };
  const rows = list.data ?? [];
  return html`<section>
    <h1>${t("Knowledge bases")}</h1>
    <p class="hint">${t("Documents that AI agents and process steps search for answers (PDF, TXT or Markdown).")}</p>
    <${NewBase} onCreated=${list.reload} />
    <${Alert} error=${error} />
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${t("No knowledge bases yet. Create one above, then upload the documents it should know.")}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Knowledge bases")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Description")}</th><th>${t("Scope")}</th><th>${t("Created")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map(
        (kb) => html`<tr data-name=${kb.name}><td><a href=${`#/settings/knowledge/${kb.id}`}>${kb.name}</a></td>
          <td>${kb.description ?? ""}</td><td>${kb.isGlobal ? t("every company") : t("this company")}</td><td>${when(kb.createdAt)}</td>
          <td class="actions-cell">${
            !kb.isGlobal || hasRole("SUPER_ADMIN")
              ? html`<button type="button" class="danger" aria-label=${t("Delete {name}", { name: kb.name })} onClick=${() => remove(kb)}>${t("Delete")}</button>`
              : html`<small>${t("global")}</small>`
          }</td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
