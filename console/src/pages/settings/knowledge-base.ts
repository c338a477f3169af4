import { useEffect, useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { type Person, Who } from "../../people";
import { Pending, useAction, useLoad } from "../../use-load";
import type { KnowledgeBase } from "./knowledge-bases";
import { KnowledgeSearch } from "./knowledge-search";

interface Detail extends KnowledgeBase {
  documentCount: number;
  chunkCount: number;
  needsReindex: boolean;
}

interface KDocument {
  id: string;
  fileName: string;
  format: string;
  size: number;
  status: "PENDING" | "INDEXING" | "INDEXED" | "FAILED";
  error: string | null;
  chunksDone: number;
  chunksTotal: number;
  uploadedBy: string | null;
  uploadedByUser?: Person | null;
  createdAt: string;
}

const POLL_MS = 1000;
const kb = (n: number) => (n < 1024 ? `${n} B` : `${Math.ceil(n / 1024)} KB`);

function Upload({ baseId, onUploaded }: { baseId: string; onUploaded(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const send = (e: Event) => {
    e.preventDefault();
    if (!file) return;
    const form = e.currentTarget as HTMLFormElement;
    setDone(null);
    const fd = new FormData();
    fd.append("file", file);
    return run(async () => {
      await api("POST", `/a/knowledge-bases/${baseId}/documents`, fd);
      setDone(`${file.name} uploaded; it is being indexed.`);
      form.reset();
      setFile(null);
      onUploaded();
    });
  };
  return html`<form class="inline" onSubmit=${send} aria-labelledby="kb-up">
    <h2 id="kb-up">Upload a document</h2>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    <div class="field"><label for="kb-file">PDF, TXT or Markdown file</label>
      <input id="kb-file" type="file" required accept=".pdf,.txt,.md,application/pdf,text/plain,text/markdown"
        onChange=${(e: Event) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} /></div>
    <button type="submit" class="primary" disabled=${!file}>Upload</button>
  </form>`;
}

function status(d: KDocument) {
  if (d.status === "INDEXING" && d.chunksTotal) return `indexing ${d.chunksDone}/${d.chunksTotal}`;
  return d.status.toLowerCase();
}

/**
 * One knowledge base: its counts, uploading (202: indexed in the background; the list is read again every second while
 * a document waits or is being indexed), its documents with their status, deleting one (confirmed), and a search.
 */
export function KnowledgeBasePage({ id }: { id: string }) {
  const base = useLoad(() => api<Detail>("GET", `/a/knowledge-bases/${id}`), [id]);
  const docs = useLoad(() => api<{ content: KDocument[] }>("GET", `/a/knowledge-bases/${id}/documents?size=100`), [id]);
  const { error, run } = useAction();
  const busy = (docs.data?.content ?? []).some((d) => d.status === "PENDING" || d.status === "INDEXING");
  useEffect(() => {
    if (!busy) return;
    const t = setTimeout(() => {
      docs.reload();
      base.reload();
    }, POLL_MS);
    return () => clearTimeout(t);
  }, [docs.data]);
  const reload = () => {
    docs.reload();
    base.reload();
  };
  const remove = (d: KDocument) => {
    if (!confirm(`Delete ${d.fileName}? Its passages leave the base at once.`)) return;
    return run(() => api("DELETE", `/a/knowledge-bases/${id}/documents/${d.id}`).then(reload));
  };
  if (!base.data) return html`<${Pending} error=${base.error} />`;
  const b = base.data;
  const writable = !b.isGlobal || hasRole("SUPER_ADMIN");
  const rows = docs.data?.content ?? [];
  return html`<section>
    <p><a href="#/settings/knowledge">← Knowledge bases</a></p>
    <h1>${b.name}</h1>
    ${b.description ? html`<p>${b.description}</p>` : null}
    <dl class="facts"><dt>Documents</dt><dd data-testid="kb-documents">${b.documentCount}</dd>
      <dt>Passages indexed</dt><dd>${b.chunkCount}</dd><dt>Scope</dt><dd>${b.isGlobal ? "every company" : "this company"}</dd></dl>
    ${b.needsReindex ? html`<p class="warn">Indexed with another embedding model than the one configured now.</p>` : null}
    ${writable ? html`<${Upload} baseId=${id} onUploaded=${reload} />` : null}
    <${Alert} error=${error} />
    ${!docs.data ? html`<${Pending} error=${docs.error} />` : null}
    ${docs.data && !rows.length ? html`<p class="empty">No documents yet. Upload a PDF, text or Markdown file above.</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>Documents</caption>
      <thead><tr><th>File</th><th>Size</th><th>Status</th><th>Uploaded</th>${writable ? html`<th>Actions</th>` : null}</tr></thead>
      <tbody>${rows.map(
        (d) => html`<tr data-name=${d.fileName}><td>${d.fileName} <small>${d.format}</small></td><td>${kb(d.size)}</td>
          <td><span class=${`status ${d.status}`}>${status(d)}</span>${d.error ? html`<br /><small>${d.error}</small>` : null}</td>
          <td>${when(d.createdAt)} by <${Who} id=${d.uploadedBy} person=${d.uploadedByUser} none="the system" /></td>
          ${
            writable
              ? html`<td><button type="button" class="danger" aria-label=${`Delete ${d.fileName}`} onClick=${() => remove(d)}>Delete</button></td>`
              : null
          }</tr>`,
      )}</tbody></table>`
        : null
    }
    <${KnowledgeSearch} baseId=${id} />
  </section>`;
}
