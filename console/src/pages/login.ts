import { useState } from "preact/hooks";
import { api, type Session, setSession } from "../api";
import { html } from "../html";
import { t } from "../i18n";
import { go } from "../router";
import { useLoad } from "../use-load";

/** After a login (password or SSO): a person with exactly one company goes straight into it, others choose. */
export async function enter(s: Session): Promise<void> {
  setSession(s);
  if (s.tenants.length === 1 && !s.roles.includes("SUPER_ADMIN")) {
    const picked = await api<Session>("POST", "/auth/select-tenant", { tenantSlug: s.tenants[0].slug });
    setSession({ ...picked, tenant: s.tenants[0].slug });
    go("/tasks");
  } else go("/tenants");
}

/**
 * One button per enabled SSO connection (GET /auth/sso/connections, no token). Each is a plain link to the
 * authorize route, which redirects the browser to the provider; it comes back to /sso/complete with a one-time code.
 */
function SsoButtons() {
  const list = useLoad(() => api<{ name: string }[]>("GET", "/auth/sso/connections"));
  if (!list.data?.length) return null;
  return html`<div class="sso" aria-labelledby="sso-h">
    <p id="sso-h">${t("Or sign in with your organisation's account:")}</p>
    ${list.data.map(
      (c) =>
        html`<a class="button-link" href=${`/api/auth/sso/${encodeURIComponent(c.name)}/authorize`}>${t("Sign in with {name}", { name: c.name })}</a>`,
    )}
  </div>`;
}

/** Password login (POST /auth/login), and the SSO buttons when a connection exists. */
export function LoginPage() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await enter(await api<Session>("POST", "/auth/login", { email, password }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return html`<section class="narrow">
    <h1>${t("Sign in")}</h1>
    <form onSubmit=${submit}>
      ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
      <div class="field">
        <label for="email">${t("E-mail")}</label>
        <input id="email" type="email" autocomplete="username" required value=${email}
          onInput=${(e: Event) => setEmail((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <div class="field">
        <label for="password">${t("Password")}</label>
        <input id="password" type="password" autocomplete="current-password" required value=${password}
          onInput=${(e: Event) => setPassword((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <button type="submit" class="primary" disabled=${busy}>${t("Sign in")}</button>
    </form>
    <${SsoButtons} />
  </section>`;
}
