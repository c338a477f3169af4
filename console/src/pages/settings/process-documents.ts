import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert } from "../../controls";
import { html } from "../../html";
import { plural, t } from "../../i18n";
import { useAction, useLoad } from "../../use-load";
import { KnowledgeDocuments } from "./knowledge-documents";

/**
 * A process's own knowledge (/a/definitions/{key}/knowledge): documents only its AI steps search, besides the linked
 * bases. The indexed passages are counted; Reindex indexes every file again, Wipe (confirmed) removes them all.
 */
export function ProcessDocuments({ processKey }: { processKey: string }) {
  const path = `/a/definitions/${encodeURIComponent(processKey)}/knowledge`;
  const count = useLoad(() => api<{ count: number }>("GET", `${path}/count`), [processKey]);
  const [version, setVersion] = useState(0);
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const changed = () => {
    count.reload();
    setVersion(version + 1);
  };
  const reindex = () =>
    run(async () => {
      await api("POST", `${path}/reindex`);
      setDone(t("Every document is being indexed again."));
      changed();
    });
  const wipe = () => {
    if (!confirm(t("Remove every document of {process} and its passages? There is no undo.", { process: processKey })))
      return;
    return run(async () => {
      await api("DELETE", path);
      setDone(t("The process's documents were removed."));
      changed();
    });
  };
  return html`<section aria-labelledby="pd-h">
    <h2 id="pd-h">${t("Process documents")}</h2>
    <p>${count.data ? plural(count.data.count, "{n} passage indexed.", "{n} passages indexed.") : ""}
      <button type="button" onClick=${reindex}>${t("Reindex")}</button>
      <button type="button" class="danger" onClick=${wipe}>${t("Remove all documents")}</button></p>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    <${KnowledgeDocuments} path=${path} writable=${true} onChange=${count.reload} key=${version} />
  </section>`;
}
