import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { locale, plural, t } from "../../i18n";
import { useAction } from "../../use-load";

interface SearchResult {
  mode: "HYBRID" | "FTS";
  note: string | null;
  hits: { chunkId: number; score: number; snippet: string; fileName: string; location: string | null }[];
}

/** Tries the base's retrieval (POST /a/knowledge-bases/{id}/search) as an agent would use it: the passages found. */
export function KnowledgeSearch({ baseId }: { baseId: string }) {
  const [query, setQuery] = useState("");
  const [result, setResult] = useState<SearchResult | null>(null);
  const { error, run } = useAction();
  const search = (e: Event) => {
    e.preventDefault();
    return run(async () =>
      setResult(await api<SearchResult>("POST", `/a/knowledge-bases/${baseId}/search`, { query, k: 5 })),
    );
  };
  return html`<form class="inline" onSubmit=${search} aria-labelledby="kb-try">
    <h2 id="kb-try">${t("Try a search")}</h2>
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="kb-q">${t("Question or words")}</label>
        <input id="kb-q" required maxlength="4000" value=${query} onInput=${(e: Event) => setQuery(valueOf(e))} /></div>
    </div>
    <button type="submit" class="primary">${t("Search")}</button>
    ${
      result
        ? html`<div role="status">
          <p>${plural(result.hits.length, "{n} passage found", "{n} passages found")} (${result.mode === "HYBRID" ? t("words and meaning") : t("words only")})${result.note ? html`: <small>${result.note}</small>` : null}</p>
          <ol class="hits">${result.hits.map(
            (h) => html`<li><strong>${h.fileName}</strong>${h.location ? html` <small>${h.location}</small>` : null}
              <small> ${t("score {score}", { score: h.score.toLocaleString(locale(), { minimumFractionDigits: 3, maximumFractionDigits: 3 }) })}</small><p>${h.snippet}</p></li>`,
          )}</ol></div>`
        : null
    }
  </form>`;
}
