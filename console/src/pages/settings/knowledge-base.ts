import { api, hasRole } from "../../api";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useLoad } from "../../use-load";
import type { KnowledgeBase } from "./knowledge-bases";
import { KnowledgeDocuments } from "./knowledge-documents";
import { KnowledgeSearch } from "./knowledge-search";

interface Detail extends KnowledgeBase {
  documentCount: number;
  chunkCount: number;
  needsReindex: boolean;
}

/** One knowledge base: its counts, its documents (upload, status, delete) and a search try-out. */
export function KnowledgeBasePage({ id }: { id: string }) {
  const base = useLoad(() => api<Detail>("GET", `/a/knowledge-bases/${id}`), [id]);
  if (!base.data) return html`<${Pending} error=${base.error} />`;
  const b = base.data;
  return html`<section>
    <p><a href="#/settings/knowledge">← ${t("Knowledge bases")}</a></p>
    <h1>${b.name}</h1>
    ${b.description ? html`<p>${b.description}</p>` : null}
    <dl class="facts"><dt>${t("Documents")}</dt><dd data-testid="kb-documents">${b.documentCount}</dd>
      <dt>${t("Passages indexed")}</dt><dd>${b.chunkCount}</dd><dt>${t("Scope")}</dt><dd>${b.isGlobal ? t("every company") : t("this company")}</dd></dl>
    ${b.needsReindex ? html`<p class="warn">${t("Indexed with another embedding model than the one configured now.")}</p>` : null}
    <${KnowledgeDocuments} path=${`/a/knowledge-bases/${id}`} writable=${!b.isGlobal || hasRole("SUPER_ADMIN")} onChange=${base.reload} />
    <${KnowledgeSearch} baseId=${id} />
  </section>`;
}
