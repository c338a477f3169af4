import { useEffect, useState } from "preact/hooks";
import { api, type Session } from "../api";
import { html } from "../html";
import { t } from "../i18n";
import { enter } from "./login";

/** The page the provider's sign-in returns to (`/sso/complete?code=`), the default SSO_RETURN_URL. */
export const isSsoReturn = () => location.pathname === "/sso/complete";

/**
 * Exchanges the one-time code (POST /auth/sso/exchange, single use, 2 minutes) for a session, then leaves the return
 * address for `/` so a reload never presents the used code again.
 */
export function SsoReturnPage() {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const code = new URLSearchParams(location.search).get("code");
    if (!code) {
      setError(t("The sign-in came back without a code."));
      return;
    }
    api<Session>("POST", "/auth/sso/exchange", { code })
      .then((s) => {
        history.replaceState(null, "", "/");
        return enter(s);
      })
      .catch((e: Error) => setError(e.message));
  }, []);
  return html`<section class="narrow">
    <h1>${t("Signing in")}</h1>
    ${
      error
        ? html`<div class="alert" role="alert">${t("Single sign-on failed: {error}", { error })}</div><p><a href="/">${t("Back to sign in")}</a></p>`
        : html`<p class="loading" aria-busy="true">${t("Completing the sign-in…")}</p>`
    }
  </section>`;
}
