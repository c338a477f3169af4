import { useState } from "preact/hooks";
import { api, apiResponse, hasRole } from "../api";
import { when } from "../format";
import { html } from "../html";
import { t } from "../i18n";
import { Pending, useAction, useLoad } from "../use-load";
import { type Person, Who } from "../people";

/** Attachment metadata as the API answers it (one version of a file). */
export interface Attachment {
  id: string;
  rootId: string;
  fileName: string;
  contentType: string;
  size: number;
  version: number;
  documentTypeId: string | null;
  status: string;
  supersededAt: string | null;
  uploadedBy: string | null;
  uploadedByUser?: Person | null;
  uploadedAt: string;
}
interface Capabilities {
  canUpload: boolean;
  canPreview: boolean;
  canReplace: boolean;
}
interface DocumentType {
  id: string;
  name: string;
  status: string;
}

const size = (n: number) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;

/**
 * Document types the caller may read: Managers and Modelers list the tenant's and the global ones, members the global
 * ones (GET /a/document-types?isGlobal=true is open to them). Inactive types are not offered for a new file.
 */
async function documentTypes(): Promise<DocumentType[]> {
  const path = hasRole("MANAGER", "MODELER", "ADMIN") ? "/a/document-types" : "/a/document-types?isGlobal=true";
  return api<DocumentType[]>("GET", path).catch(() => []);
}

/** Saves a file of the API (the download route needs the bearer token, so a plain link would not do). */
async function download(a: Attachment): Promise<void> {
  const blob = await (await apiResponse("GET", `/a/attachments/${a.id}/download`)).blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = a.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Versions({ current }: { current: Attachment }) {
  const list = useLoad(() => api<Attachment[]>("GET", `/a/attachments/${current.id}/history`), [current.id]);
  const { error, run } = useAction();
  if (!list.data) return html`<${Pending} error=${list.error} />`;
  if (list.data.length === 0) return html`<p class="muted">${t("No earlier versions.")}</p>`;
  return html`<div>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <ul class="versions" aria-label=${t("Earlier versions of {file}", { file: current.fileName })}>${list.data.map(
      (v) => html`<li key=${v.id}>
        <button type="button" class="link" onClick=${() => run(() => download(v))}
          aria-label=${t("Download version {version} of {file}", { version: v.version, file: v.fileName })}>v${v.version} ${v.fileName}</button>
        <span class="muted"> · ${size(v.size)} · <${Who} id=${v.uploadedBy} person=${v.uploadedByUser} none="the system" /> · ${when(v.uploadedAt)}${
          v.supersededAt ? ` · ${t("replaced {date}", { date: when(v.supersededAt) })}` : ""
        }</span>
      </li>`,
    )}</ul>
  </div>`;
}

function Row({
  a,
  caps,
  typeName,
  onChanged,
}: {
  a: Attachment;
  caps: Capabilities;
  typeName(id: string | null): string;
  onChanged(message: string): void;
}) {
  const [open, setOpen] = useState(false);
  const { error, run } = useAction();
  const replace = (file: File) =>
    run(async () => {
      const fd = new FormData();
      fd.append("file", file);
      const next = await api<Attachment>("POST", `/a/attachments/${a.id}/replace`, fd);
      onChanged(
        t("{file} replaced by {next} (version {version}).", {
          file: a.fileName,
          next: next.fileName,
          version: next.version,
        }),
      );
    });
  const inputId = `replace-${a.id}`;
  const type = a.documentTypeId ? [typeName(a.documentTypeId)] : [];
  const meta = [`v${a.version}`, size(a.size), ...type].join(" · ");
  return html`<li class="attachment" data-file=${a.fileName}>
    <div class="attachment-head">
      <button type="button" class="link" onClick=${() => run(() => download(a))} aria-label=${t("Download {file}", { file: a.fileName })}>
        ${a.fileName}</button>
      <span class="muted">${meta} · <${Who} id=${a.uploadedBy} person=${a.uploadedByUser} none="the system" /> · ${when(a.uploadedAt)}</span>
    </div>
    <div class="row-actions">
      ${
        a.version > 1
          ? html`<button type="button" aria-expanded=${open} onClick=${() => setOpen(!open)}
              aria-label=${
                open
                  ? t("Hide earlier versions of {file}", { file: a.fileName })
                  : t("Show earlier versions of {file}", { file: a.fileName })
              }>${t("Versions")}</button>`
          : null
      }
      ${
        caps.canReplace
          ? html`<input type="file" id=${inputId} class="sr-only file-proxy" onChange=${(e: Event) => {
              const f = (e.currentTarget as HTMLInputElement).files?.[0];
              if (f) void replace(f);
            }} /><label for=${inputId} class="file-button">${t("Replace")}<span class="sr-only"> ${a.fileName}</span></label>`
          : null
      }
    </div>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${open ? html`<${Versions} current=${a} />` : null}
  </li>`;
}

/**
 * The files of a process instance, as its attachment policy lets the caller act (GET /a/attachments/capabilities):
 * the current versions with download, replace (a new version; the old one stays in the history) and earlier versions,
 * and an upload with an optional document type. Nothing can be deleted: the spec forbids it for process files.
 */
export function AttachmentsPanel({ instanceId }: { instanceId: string }) {
  const q = `entityType=PROCESS_INSTANCE&entityId=${encodeURIComponent(instanceId)}`;
  const data = useLoad(async () => {
    const caps = await api<Capabilities>("GET", `/a/attachments/capabilities?${q}`);
    const [files, types] = await Promise.all([
      caps.canPreview ? api<Attachment[]>("GET", `/a/attachments?${q}`) : Promise.resolve([]),
      caps.canUpload ? documentTypes() : Promise.resolve([]),
    ]);
    return { caps, files, types };
  }, [instanceId]);
  const [file, setFile] = useState<File | null>(null);
  const [typeId, setTypeId] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const { error, run } = useAction();
  const heading = html`<h2 id="files-h">${t("Files")}</h2>`;
  if (!data.data)
    return html`<section aria-labelledby="files-h">${heading}<${Pending} error=${data.error} /></section>`;
  const { caps, files, types } = data.data;
  const typeName = (id: string | null) => types.find((d) => d.id === id)?.name ?? t("document type");
  const changed = (m: string) => {
    setNotice(m);
    data.reload();
  };
  const upload = (e: Event) => {
    e.preventDefault();
    if (!file) return;
    return run(async () => {
      const fd = new FormData();
      fd.append("file", file);
      fd.append("entityType", "PROCESS_INSTANCE");
      fd.append("entityId", instanceId);
      if (typeId) fd.append("documentTypeId", typeId);
      const a = await api<Attachment>("POST", "/a/attachments", fd);
      setFile(null);
      setTypeId("");
      setFormKey((k) => k + 1);
      changed(t("{file} attached.", { file: a.fileName }));
    });
  };
  return html`<section aria-labelledby="files-h" class="attachments">
    ${heading}
    ${notice ? html`<div class="notice" role="status">${notice}</div>` : null}
    ${
      !caps.canPreview
        ? html`<p>${t("Your process roles do not let you see this process's files.")}</p>`
        : files.length === 0
          ? html`<p>${t("No files yet.")}</p>`
          : html`<ul class="attachment-list">${files.map(
              (a) => html`<${Row} key=${a.id} a=${a} caps=${caps} typeName=${typeName} onChanged=${changed} />`,
            )}</ul>`
    }
    ${
      caps.canUpload
        ? html`<form class="upload" key=${formKey} onSubmit=${upload}>
          ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
          <div class="field">
            <label for="new-file">${t("Add a file")}</label>
            <input type="file" id="new-file" onChange=${(e: Event) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} />
          </div>
          ${
            types.length
              ? html`<div class="field"><label for="doc-type">${t("Document type")} <span class="muted">${t("(optional)")}</span></label>
                <select id="doc-type" value=${typeId} onChange=${(e: Event) => setTypeId((e.currentTarget as HTMLSelectElement).value)}>
                  <option value="">—</option>
                  ${types.filter((d) => d.status !== "INACTIVE").map((d) => html`<option value=${d.id}>${d.name}</option>`)}
                </select></div>`
              : null
          }
          <button type="submit" disabled=${!file}>${t("Upload")}</button>
        </form>`
        : html`<p class="muted">${t("Adding files here is not open to you (the process's attachment policy).")}</p>`
    }
  </section>`;
}
