import { render } from "preact";
import { html } from "./html";
import { App } from "./app";
import { initLang } from "./i18n";

const root = document.getElementById("app") as HTMLElement;
// The chosen language's catalog is loaded before the first render, so a Portuguese reader never sees English first.
void initLang().then(() => {
  // The page's "Loading…" placeholder is plain HTML, not Preact's: clear it, or render would keep it beside the app.
  root.textContent = "";
  render(html`<${App} />`, root);
});
