import { useState } from "preact/hooks";
import { api } from "../api";
import { valueOf } from "../controls";
import { when } from "../format";
import { html } from "../html";
import { plural, t } from "../i18n";
import { Pending, useLoad } from "../use-load";
import { enumLabel } from "./work-labels";

interface Row {
  id: string;
  businessKey: string | null;
  version: number;
  state: string;
  startTime: string;
  endTime: string | null;
}
interface Page {
  content: Row[];
  /** The page these rows are (the next one may still be loading). */
  number: number;
  totalElements: number;
  totalPages: number;
}

export interface InstanceSearchForm {
  state: string;
  businessKey: string;
  varName: string;
  varValue: string;
  /** yyyy-mm-dd from the date inputs, in the browser's day. */
  from: string;
  to: string;
}

export const NO_SEARCH: InstanceSearchForm = {
  state: "running",
  businessKey: "",
  varName: "",
  varValue: "",
  from: "",
  to: "",
};

const SIZE = 20;

/** The states a search offers (the API's words) with their labels in the reader's language. */
const states = (): [string, string][] => [
  ["running", t("running")],
  ["active", t("active")],
  ["suspended", t("suspended")],
  ["ended", t("ended")],
  ["completed", t("completed")],
  ["cancelled", t("cancelled")],
  ["all", t("all")],
];

/**
 * The query of GET /a/instances for one definition (and version) and the form: a started-between window covers whole
 * days of the browser (from the first day's midnight to the midnight after the last), a variable needs its value.
 */
export function instanceQuery(key: string, version: number | null, f: InstanceSearchForm, page: number): string {
  const q = new URLSearchParams({ definitionKey: key, state: f.state, page: String(page), size: String(SIZE) });
  if (version) q.set("version", String(version));
  if (f.businessKey.trim()) q.set("businessKey", f.businessKey.trim());
  if (f.varName.trim() && f.varValue !== "") {
    q.set("varName", f.varName.trim());
    q.set("varValue", f.varValue);
  }
  const day = (s: string, plus: number) => {
    const [y, m, d] = s.split("-").map(Number);
    return new Date(y, m - 1, d + plus).toISOString();
  };
  if (f.from) q.set("startedAfter", day(f.from, 0));
  if (f.to) q.set("startedBefore", day(f.to, 1));
  return q.toString();
}

/**
 * The instances of one definition (the monitor's version, or all), searched by state (running by default; ended ones are the history,
 * most recently ended first), business key (starts with), a variable's value and the days they started, a page at a
 * time; each opens its instance page.
 */
export function InstanceSearch({
  processKey,
  version,
  versions,
}: {
  processKey: string;
  /** The version the monitor shows, searched first; "all versions" is one choice away. */
  version: number;
  versions: number[];
}) {
  const [form, setForm] = useState(NO_SEARCH);
  const [sent, setSent] = useState(NO_SEARCH);
  const [page, setPage] = useState(0);
  const [ver, setVer] = useState<string>(String(version));
  const query = instanceQuery(processKey, ver ? Number(ver) : null, sent, page);
  const found = useLoad(() => api<Page>("GET", `/a/instances?${query}`), [query]);
  const set = (k: keyof InstanceSearchForm) => (e: Event) => setForm({ ...form, [k]: valueOf(e) });
  const submit = (e: Event) => {
    e.preventDefault();
    setSent(form);
    setPage(0);
  };
  const field = (k: keyof InstanceSearchForm, label: string, type = "text") =>
    html`<label>${label}<input type=${type} name=${k} value=${form[k]} onInput=${set(k)} /></label>`;
  const p = found.data;
  return html`<section aria-labelledby="inst-h">
    <h2 id="inst-h">${t("Instances")}</h2>
    <form class="instance-search" role="search" aria-label=${t("Search instances")} onSubmit=${submit}>
      <label>${t("Version")}<select name="version" value=${ver} onChange=${(e: Event) => {
        setVer(valueOf(e));
        setPage(0);
      }}>
        <option value="">${t("All versions")}</option>
        ${versions.map((v) => html`<option value=${String(v)}>v${v}</option>`)}
      </select></label>
      <label>${t("State")}<select name="state" value=${form.state} onChange=${set("state")}>
        ${states().map(([s, label]) => html`<option value=${s}>${label}</option>`)}
      </select></label>
      ${field("businessKey", t("Business key starts with"))}
      ${field("varName", t("Variable"))}${field("varValue", t("equals"))}
      ${field("from", t("Started from"), "date")}${field("to", t("to"), "date")}
      <button type="submit">${t("Search")}</button>
    </form>
    ${!p || found.error ? html`<${Pending} error=${found.error} />` : null}
    ${p ? html`<p class="muted" aria-live="polite">${plural(p.totalElements, "{n} instance", "{n} instances")}${p.totalPages > 1 ? ` · ${t("page {page} of {pages}", { page: p.number + 1, pages: p.totalPages })}` : ""}</p>` : null}
    ${
      p?.content.length
        ? html`<div class="scroll"><table class="grid instances"><caption class="sr-only">${t("Instances found")}</caption>
          <thead><tr><th>${t("Business key")}</th><th>${t("Version")}</th><th>${t("State")}</th><th>${t("Started")}</th><th>${t("Ended")}</th></tr></thead>
          <tbody>${p.content.map(
            (i) => html`<tr key=${i.id} data-instance=${i.id}>
              <td><a href=${`#/instances/${i.id}`}>${i.businessKey ?? i.id}</a></td><td>v${i.version}</td>
              <td class=${`status ${i.state}`}>${enumLabel(i.state)}</td><td>${when(i.startTime)}</td>
              <td>${i.endTime ? when(i.endTime) : ""}</td></tr>`,
          )}</tbody></table></div>`
        : null
    }
    ${
      p && p.totalPages > 1
        ? html`<nav class="pager" aria-label=${t("Instance pages")}>
            <button type="button" disabled=${page === 0} onClick=${() => setPage(page - 1)}>${t("Previous page")}</button>
            <button type="button" disabled=${page + 1 >= p.totalPages} onClick=${() => setPage(page + 1)}>${t("Next page")}</button>
          </nav>`
        : null
    }
  </section>`;
}
