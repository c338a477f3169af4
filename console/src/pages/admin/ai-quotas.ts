import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { AiUsage } from "./ai-usage";
import { locale, t } from "../../i18n";

interface TenantQuota {
  id: string;
  name: string;
  slug: string;
  monthlyTokens: number | null;
  usedThisMonth: number;
}
interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string | null;
  aiQuota: number | null;
}

const tokens = (n: number) => n.toLocaleString(locale());
/** A typed ceiling: empty is none (null), else a whole number of tokens. */
function ceiling(text: string): number | null {
  if (!text.trim()) return null;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(t("A quota is a whole number of tokens (or empty for none)."));
  return n;
}

async function tenantQuotas(): Promise<TenantQuota[]> {
  const tenants = (
    await api<{ content: { id: string; name: string; slug: string }[] }>("GET", "/admin/tenants?size=100")
  ).content;
  return Promise.all(
    tenants.map(async (c) => ({
      ...c,
      ...(await api<Omit<TenantQuota, "id" | "name" | "slug">>("GET", `/admin/tenants/${c.id}/ai-quota`)),
    })),
  );
}

/** One editable number in a row: its own input and Save button, labelled by whose quota it is. */
function QuotaCell({
  label,
  value,
  onSave,
}: {
  label: string;
  value: number | null;
  onSave(text: string): Promise<unknown>;
}) {
  const [text, setText] = useState(value === null ? "" : String(value));
  const id = `q-${label.replace(/\W+/g, "-")}`;
  return html`<div class="row-actions"><label class="sr-only" for=${id}>${label}</label>
    <input id=${id} type="number" min="0" step="1" placeholder=${t("none")} value=${text} onInput=${(e: Event) => setText(valueOf(e))} />
    <button type="button" aria-label=${t("Save {what}", { what: label })} onClick=${() => onSave(text)}>${t("Save")}</button></div>`;
}

/**
 * SA: AI quotas and usage. Each company's monthly token quota beside this month's use, with its breakdown by feature
 * and person on request (GET /admin/tenants/{id}/ai-usage), (GET/PUT
 * /admin/tenants/{id}/ai-quota; none means AI features are refused with 402), and each person's own ceiling
 * (PUT /admin/users/{id}/ai-quota; none means only the company's quota applies).
 */
export function AiQuotasPage() {
  const quotas = useLoad(tenantQuotas);
  const [search, setSearch] = useState("");
  const [detail, setDetail] = useState<TenantQuota | null>(null);
  const users = useLoad(
    () =>
      api<{ content: User[] }>("GET", `/admin/users?size=50&sort=email,asc&search=${encodeURIComponent(search)}`).then(
        (p) => p.content,
      ),
    [search],
  );
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const saveTenant = (q: TenantQuota) => (text: string) =>
    run(async () => {
      const monthlyTokens = ceiling(text);
      await api("PUT", `/admin/tenants/${q.id}/ai-quota`, { monthlyTokens });
      setDone(
        monthlyTokens === null
          ? t("{name}: no AI quota (AI refused).", { name: q.name })
          : t("{name}: {n} tokens a month.", { name: q.name, n: tokens(monthlyTokens) }),
      );
      quotas.reload();
    });
  const saveUser = (u: User) => (text: string) =>
    run(async () => {
      const quota = ceiling(text);
      await api("PUT", `/admin/users/${u.id}/ai-quota`, { quota });
      setDone(
        quota === null
          ? t("{email}: no personal ceiling.", { email: u.email })
          : t("{email}: at most {n} tokens.", { email: u.email, n: tokens(quota) }),
      );
      users.reload();
    });
  return html`<section>
    <h1>${t("AI quotas and usage")}</h1>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    <h2>${t("Companies")}</h2>
    <p class="hint">${t("Tokens a company's AI features (agents, suggestions, copilot, validation) may spend each month. Empty: none configured, AI is refused.")}</p>
    ${!quotas.data ? html`<${Pending} error=${quotas.error} />` : null}
    ${quotas.data && !quotas.data.length ? html`<p class="empty">${t("No companies yet: create one under Tenants.")}</p>` : null}
    ${
      quotas.data?.length
        ? html`<table class="grid"><caption>${t("Monthly AI quota per company")}</caption>
      <thead><tr><th>${t("Company")}</th><th>${t("Used this month")}</th><th>${t("Monthly quota (tokens)")}</th></tr></thead>
      <tbody>${quotas.data.map(
        (q) => html`<tr key=${q.id} data-slug=${q.slug}><td>${q.name} <small>${q.slug}</small></td>
          <td>${tokens(q.usedThisMonth)}${q.monthlyTokens ? html` <small>(${Math.round((100 * q.usedThisMonth) / q.monthlyTokens)} %)</small>` : null}
            <button type="button" class="link" aria-label=${t("Usage of {slug}", { slug: q.slug })} onClick=${() => setDetail(q)}>${t("details")}</button></td>
          <td><${QuotaCell} label=${t("quota of {slug}", { slug: q.slug })} value=${q.monthlyTokens} onSave=${saveTenant(q)} key=${`${q.id}-${q.monthlyTokens}`} /></td></tr>`,
      )}</tbody></table>`
        : null
    }
    ${detail ? html`<${AiUsage} path=${`/admin/tenants/${detail.id}/ai-usage`} name=${detail.name} key=${`${detail.id}-${detail.usedThisMonth}`} />` : null}
    <h2>${t("People")}</h2>
    <p class="hint">${t("A person's own ceiling within their company's quota. Empty: only the company's quota applies.")}</p>
    <div class="field"><label for="q-search">${t("Find a person (e-mail or name)")}</label>
      <input id="q-search" type="search" value=${search} onInput=${(e: Event) => setSearch(valueOf(e))} /></div>
    ${!users.data ? html`<${Pending} error=${users.error} />` : null}
    ${users.data && !users.data.length ? html`<p class="empty">${t("Nobody matches.")}</p>` : null}
    ${
      users.data?.length
        ? html`<table class="grid"><caption>${t("Personal AI ceilings")}</caption>
      <thead><tr><th>${t("Person")}</th><th>${t("Ceiling (tokens)")}</th></tr></thead>
      <tbody>${users.data.map(
        (
          u,
        ) => html`<tr key=${u.id} data-email=${u.email}><td><span title=${u.email}>${[u.firstName, u.lastName].filter(Boolean).join(" ") || u.email}</span> <small>${u.email}</small></td>
          <td><${QuotaCell} label=${t("ceiling of {email}", { email: u.email })} value=${u.aiQuota} onSave=${saveUser(u)} key=${`${u.id}-${u.aiQuota}`} /></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
