import { html } from "../../html";
import { t } from "../../i18n";
import { AiUsage } from "../admin/ai-usage";

/** Admin: the company's own AI quota and this month's use (GET /a/ai/usage), by feature and by person. */
export function CompanyAiUsagePage() {
  return html`<section>
    <h1>${t("AI usage")}</h1>
    <p class="hint">${t("Tokens the company's AI features spent this calendar month (UTC), against the quota the platform sets.")}</p>
    <${AiUsage} path="/a/ai/usage" name=${t("this company")} />
  </section>`;
}
