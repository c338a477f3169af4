import { useEffect, useState } from "preact/hooks";
import { api } from "../../api";
import { Alert } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { t } from "../../i18n";
import { type Person, Who } from "../../people";
import { Pending, useAction, useLoad } from "../../use-load";

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
const status = (d: KDocument) => {
  if (d.status === "INDEXING" && d.chunksTotal)
    return t("indexing {done}/{total}", { done: d.chunksDone, total: d.chunksTotal });
  const names: Record<string, string> = {
    PENDING: t("pending"),
    INDEXING: t("indexing"),
    INDEXED: t("indexed"),
    FAILED: t("failed"),
  };
  return names[d.status] ?? d.status.toLowerCase();
};

function Upload({ path, onUploaded }: { path: string; onUploaded(): void }) {
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
      await api("POST", `${path}/documents`, fd);
      setDone(t("{name} uploaded; it is being indexed.", { name: file.name }));
      form.reset();
      setFile(null);
      onUploaded();
    });
  };
  return html`<form class="inline" onSubmit=${send} aria-label=${t("Upload a document")}>
    <h2>${t("Upload a document")}</h2>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    <div class="field"><label for="kb-file">${t("PDF, TXT or Markdown file")}</label>
      <input id="kb-file" type="file" required accept=".pdf,.txt,.md,application/pdf,text/plain,text/markdown"
        onChange=${(e: Event) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} /></div>
    <button type="submit" class="primary" disabled=${!file}>${t("Upload")}</button>
  </form>`;
}

/**
 * The documents under `path` (a base, `/a/knowledge-bases/{id}`, or a process's own, `/a/definitions/{key}/knowledge`):
 * upload (202: indexed in the background; the list is read again every second while one waits or is being indexed),
 * each document's status and uploader by name, delete (confirmed). `onChange` tells the page its counts moved.
 */
export function KnowledgeDocuments({
  path,
  writable,
  onChange,
}: {
  path: string;
  writable: boolean;
  onChange(): void;
}) {
  const docs = useLoad(() => api<{ content: KDocument[] }>("GET", `${path}/documents?size=100`), [path]);
  const { error, run } = useAction();
  const busy = (docs.data?.content ?? []).some((d) => d.status === "PENDING" || d.status === "INDEXING");
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => {
      docs.reload();
      onChange();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [docs.data]);
  const reload = () => {
    docs.reload();
    onChange();
  };
  const remove = (d: KDocument) => {
    if (!confirm(t("Delete {name}? Its passages are no longer found.", { name: d.fileName }))) return;
    return run(() => api("DELETE", `${path}/documents/${d.id}`).then(reload));
  };
  const rows = docs.data?.content ?? [];
  return html`<div>
    ${writable ? html`<${Upload} path=${path} onUploaded=${reload} />` : null}
    <${Alert} error=${error} />
    ${!docs.data ? html`<${Pending} error=${docs.error} />` : null}
    ${docs.data && !rows.length ? html`<p class="empty">${writable ? t("No documents yet. Upload a PDF, text or Markdown file above.") : t("No documents yet.")}</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Documents")}</caption>
      <thead><tr><th>${t("File")}</th><th>${t("Size")}</th><th>${t("Status")}</th><th>${t("Uploaded")}</th>${writable ? html`<th>${t("Actions")}</th>` : null}</tr></thead>
      <tbody>${rows.map(
        (
          d,
        ) => html`<tr key=${d.id} data-name=${d.fileName}><td>${d.fileName} <small>${d.format}</small></td><td>${kb(d.size)}</td>
          <td><span class=${`status ${d.status}`}>${status(d)}</span>${d.error ? html`<br /><small>${d.error}</small>` : null}</td>
          <td>${t("{date} by", { date: when(d.createdAt) })} <${Who} id=${d.uploadedBy} person=${d.uploadedByUser} none=${t("the system")} /></td>
          ${
            writable
              ? html`<td><button type="button" class="danger" aria-label=${t("Delete {name}", { name: d.fileName })} onClick=${() => remove(d)}>${t("Delete")}</button></td>`
              : null
          }</tr>`,
      )}</tbody></table>`
        : null
    }
  </div>`;
}
