import { html } from "./html";
import { LANGS, lang, setLang, t, type Lang } from "./i18n";

/** The language switch in the header (and on the login page): the choice is kept in this browser. */
export function LangSwitch() {
  return html`<label class="lang-switch">
    <span class="sr-only">${t("Language")}</span>
    <select value=${lang()} onChange=${(e: Event) => void setLang((e.target as HTMLSelectElement).value as Lang)}>
      ${LANGS.map((l) => html`<option value=${l.code} lang=${l.code}>${l.label}</option>`)}
    </select>
  </label>`;
}
