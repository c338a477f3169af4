import { api } from "../../api";
import { html } from "../../html";
import { type Person, Who } from "../../people";
import { Pending, useLoad } from "../../use-load";

interface Usage {
  since: string;
  tokens: number;
  calls: number;
  byFeature: { feature: string; tokens: number; calls: number }[];
  byCaller: { actorKind: string; userId: string | null; user: Person | null; tokens: number; calls: number }[];
}

const n = (x: number) => x.toLocaleString();
const CALLERS: Record<string, string> = { SYSTEM: "the system (indexing)", API_KEY: "API keys" };

/** SA: one company's AI use this month (GET /admin/tenants/{id}/ai-usage), by feature and by who made the calls. */
export function AiUsage({ tenantId, name }: { tenantId: string; name: string }) {
  const usage = useLoad(() => api<Usage>("GET", `/admin/tenants/${tenantId}/ai-usage`), [tenantId]);
  if (!usage.data) return html`<${Pending} error=${usage.error} />`;
  const u = usage.data;
  return html`<section aria-labelledby="usage-h">
    <h2 id="usage-h">Usage of ${name} this month</h2>
    <p>${n(u.tokens)} tokens in ${n(u.calls)} call${u.calls === 1 ? "" : "s"} since ${new Date(u.since).toLocaleDateString()}.</p>
    ${
      u.calls
        ? html`<div class="row-fields">
          <table class="grid"><caption>By feature</caption><thead><tr><th>Feature</th><th>Calls</th><th>Tokens</th></tr></thead>
            <tbody>${u.byFeature.map((f) => html`<tr key=${f.feature}><td><code>${f.feature}</code></td><td>${n(f.calls)}</td><td>${n(f.tokens)}</td></tr>`)}</tbody></table>
          <table class="grid"><caption>By person</caption><thead><tr><th>Who</th><th>Calls</th><th>Tokens</th></tr></thead>
            <tbody>${u.byCaller.map(
              (c) => html`<tr key=${`${c.actorKind}-${c.userId}`} data-user=${c.userId ?? c.actorKind}>
                <td>${c.userId ? html`<${Who} id=${c.userId} person=${c.user} />` : (CALLERS[c.actorKind] ?? c.actorKind)}</td>
                <td>${n(c.calls)}</td><td>${n(c.tokens)}</td></tr>`,
            )}</tbody></table></div>`
        : html`<p class="empty">No AI calls this month.</p>`
    }
  </section>`;
}
