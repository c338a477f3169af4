import { html } from "./html";
import { LANGS, lang, setLang, t, type Lang } from "./i18n";

/** The language switch in the header (and on the login page): the choice is kept in this browser. */
export function LangSwitch() {
  // Named by aria-label, not a wrapping label: a label's text would include the options' ("Português"), and a lookup
  // by a field's label such as "port" would find the switch.
  return html`<span class="lang-switch">
    <select aria-label=${t("Language")} value=${lang()} onChange=${(e: Event) => void setLang((e.target as HTMLSelectElement).value as Lang)}>
      ${LANGS.map((l) => html`<option value=${l.code} lang=${l.code}>${l.label}</option>`)}
    </select>
  </span>`;
}
