/**
 * dmn-js's editor (decision tables, the DRD, literal expressions), imported only by the decision editor page: Bun's
 * bundler puts it in a lazy chunk, so no other page downloads it. Its stylesheets and font are served from the
 * installed package at /dmn-js/ (no CDN). dmn-js reads DMN 1.3 only; older and newer files are brought to it by the
 * engine's own namespace step (`toDmn13`), the same one the server reads them with.
 */
import { toDmn13 } from "../../engine/dmn/model/namespaces";
import { lang } from "./i18n";

const STYLES = [
  "/dmn-js/diagram-js.css",
  "/dmn-js/dmn-js-shared.css",
  "/dmn-js/dmn-js-drd.css",
  "/dmn-js/dmn-js-decision-table.css",
  "/dmn-js/dmn-js-decision-table-controls.css",
  "/dmn-js/dmn-js-literal-expression.css",
  "/dmn-js/dmn-js-boxed-expression.css",
  "/dmn-js/dmn-js-boxed-expression-controls.css",
  "/dmn-js/dmn-font/css/dmn-embedded.css",
];

function linkStyles(): void {
  for (const href of STYLES) {
    if (document.querySelector(`link[href="${href}"]`)) continue;
    const l = document.createElement("link");
    l.rel = "stylesheet";
    l.href = href;
    document.head.append(l);
  }
}

/** One view of the file dmn-js can open: the DRD, or one decision's table or literal expression. */
export interface DmnView {
  id: string;
  type: string;
  name: string;
}

export interface DmnCanvas {
  views(): DmnView[];
  active(): DmnView | null;
  open(id: string): Promise<void>;
  /** The file as DMN 1.3 XML, formatted. */
  xml(): Promise<string>;
  destroy(): void;
}

interface DmnjsView {
  type: string;
  element: { id: string; name?: string };
}
interface Dmnjs {
  importXML(xml: string): Promise<{ warnings: unknown[] }>;
  saveXML(o: { format: boolean }): Promise<{ xml?: string }>;
  getViews(): DmnjsView[];
  getActiveView(): DmnjsView | undefined;
  open(v: DmnjsView): Promise<unknown>;
  on(event: string, fn: () => void): void;
  destroy(): void;
}

/**
 * dmn-js closes its drop-down lists (the hit policy, a column's type) and context menus when focus lands outside
 * them. Standalone, a click on an option moves focus nowhere; in the console the page's <main tabindex="-1"> (the skip
 * link's target) takes it, so the list closed before the click reached the option and nothing was chosen. A mouse
 * press on those lists' plain (not focusable) items keeps the focus where it is.
 */
function keepFocus(e: MouseEvent): void {
  const t = e.target as Element | null;
  if (t?.closest(".dms-select-options, .context-menu") && !t.closest("input, select, textarea, [contenteditable]"))
    e.preventDefault();
}

const viewOf = (v: DmnjsView): DmnView => ({ id: v.element.id, type: v.type, name: v.element.name || v.element.id });

/**
 * Opens `xml` for editing in `container`, on the view of decision `decisionKey` when it has one (else dmn-js's first
 * view). `onViews` is told whenever the views change (a decision added or renamed in the DRD, another view opened).
 */
export async function openDmnEditor(
  container: HTMLElement,
  xml: string,
  decisionKey: string | null,
  onViews: () => void,
): Promise<DmnCanvas> {
  linkStyles();
  const [{ default: DmnModeler }, source, translation] = await Promise.all([
    import("dmn-js/lib/Modeler"),
    toDmn13(xml),
    // dmn-js's own texts in the console's language: its translate service, loaded only for Portuguese
    lang() === "pt-BR" ? import("./bpmn-io-translate").then((m) => [m.dmnTranslateModule()]) : [],
  ]);
  // dmn-js gives each view only its own options' modules (`common` ones are replaced), so each view is given it.
  const views = { additionalModules: translation };
  const modeler = new DmnModeler({
    container,
    drd: views,
    decisionTable: views,
    literalExpression: views,
    boxedExpression: views,
  }) as unknown as Dmnjs;
  container.addEventListener("mousedown", keepFocus, true);
  await modeler.importXML(source);
  const find = (id: string) => modeler.getViews().find((v) => v.element.id === id && v.type !== "drd");
  const first = decisionKey ? find(decisionKey) : undefined;
  if (first && modeler.getActiveView() !== first) await modeler.open(first);
  modeler.on("views.changed", onViews);
  return {
    views: () => modeler.getViews().map(viewOf),
    active: () => {
      const v = modeler.getActiveView();
      return v ? viewOf(v) : null;
    },
    open: async (id) => {
      const v = modeler.getViews().find((x) => x.element.id === id);
      if (v) await modeler.open(v);
    },
    xml: async () => (await modeler.saveXML({ format: true })).xml ?? "",
    destroy: () => {
      container.removeEventListener("mousedown", keepFocus, true);
      modeler.destroy();
    },
  };
}
