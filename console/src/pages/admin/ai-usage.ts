import { api } from "../../api";
import { html } from "../../html";
import { type Person, Who } from "../../people";
import { Pending, useLoad } from "../../use-load";
import { locale, plural, t } from "../../i18n";

interface Usage {
  /** Only on the company's own answer (GET /a/ai/usage); the SA's page shows the quota beside it already. */
  monthlyTokens?: number | null;
  since: string;
  tokens: number;
  calls: number;
  byFeature: { feature: string; tokens: number; calls: number }[];
  byCaller: { actorKind: string; userId: string | null; user: Person | null; tokens: number; calls: number }[];
}

const n = (x: number) => x.toLocaleString(locale());
const CALLERS: Record<string, () => string> = {
  SYSTEM: () => t("the system (indexing)"),
  API_KEY: () => t("API keys"),
};

/**
 * A company's AI use this month, by feature and by who made the calls: an SA's view of any company (`path`
 * /admin/tenants/{id}/ai-usage) or an Admin's of their own (/a/ai/usage, which also carries the monthly quota).
 */
export function AiUsage({ path, name }: { path: string; name: string }) {
  const usage = useLoad(() => api<Usage>("GET", path), [path]);
  if (!usage.data) return html`<${Pending} error=${usage.error} />`;
  const u = usage.data;
  return html`<section aria-labelledby="usage-h">
    <h2 id="usage-h">${t("Usage of {name} this month", { name })}</h2>
    <p>${t("{tokens} tokens in {calls} since {date}.", { tokens: n(u.tokens), calls: plural(u.calls, "{n} call", "{n} calls"), date: new Date(u.since).toLocaleDateString(locale()) })}
      ${u.monthlyTokens === undefined ? null : u.monthlyTokens === null ? t("No monthly quota is configured, so metered AI features are refused; the platform administrator sets it.") : t("The monthly quota is {n} tokens.", { n: n(u.monthlyTokens) })}</p>
    ${
      u.calls
        ? html`<div class="row-fields">
          <table class="grid"><caption>${t("By feature")}</caption><thead><tr><th>${t("Feature")}</th><th>${t("Calls")}</th><th>${t("Tokens")}</th></tr></thead>
            <tbody>${u.byFeature.map((f) => html`<tr key=${f.feature}><td><code>${f.feature}</code></td><td>${n(f.calls)}</td><td>${n(f.tokens)}</td></tr>`)}</tbody></table>
          <table class="grid"><caption>${t("By person")}</caption><thead><tr><th>${t("Who")}</th><th>${t("Calls")}</th><th>${t("Tokens")}</th></tr></thead>
            <tbody>${u.byCaller.map(
              (c) => html`<tr key=${`${c.actorKind}-${c.userId}`} data-user=${c.userId ?? c.actorKind}>
                <td>${c.userId ? html`<${Who} id=${c.userId} person=${c.user} />` : (CALLERS[c.actorKind]?.() ?? c.actorKind)}</td>
                <td>${n(c.calls)}</td><td>${n(c.tokens)}</td></tr>`,
            )}</tbody></table></div>`
        : html`<p class="empty">${t("No AI calls this month.")}</p>`
    }
  </section>`;
}
