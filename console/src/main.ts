import { render } from "preact";
import { html } from "./html";
import { App } from "./app";

const root = document.getElementById("app") as HTMLElement;
// The page's "Loading…" placeholder is plain HTML, not Preact's: clear it, or render would keep it beside the app.
root.textContent = "";
render(html`<${App} />`, root);
