import { useEffect, useRef, useState } from "preact/hooks";
import { api, apiText } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import type { ModelerCanvas } from "../../modeler-canvas";
import { useAction } from "../../use-load";
import { deployXml } from "./deploy";
import { loadPickerData } from "./picker-data";
import type { PickerStore } from "./service-provider";
import { t } from "../../i18n";

const enc = encodeURIComponent;

/** The XML of the newest deployed version of a process (its version history, then that version's XML). */
async function latestXml(key: string): Promise<string> {
  const versions = await api<{ definitionId: string; version: number }[]>("GET", `/a/definitions/${enc(key)}/versions`);
  const newest = versions.reduce((a, b) => (b.version > a.version ? b : a));
  return apiText(`/a/definitions/${enc(key)}/versions/${enc(newest.definitionId)}/xml`);
}

/** The canvas: bpmn-js loaded lazily (its own chunk), the XML of `source` opened in it, Deploy sending it. */
function Editor({ processKey, source }: { processKey: string; source: () => Promise<string> }) {
  const box = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const canvas = useRef<ModelerCanvas | null>(null);
  const [ready, setReady] = useState(false);
  const [done, setDone] = useState<string[]>([]);
  const { error, run } = useAction();
  const [loadError, setLoadError] = useState<string | null>(null);
  const [listFailures, setListFailures] = useState<string[]>([]);
  useEffect(() => {
    let gone = false;
    // The pickers' lists load beside the modeler, once; the modeler never waits for them (each fills its picker when
    // it arrives) and a list that fails is reported here, its picker taking typed keys.
    const pickers: PickerStore = {
      data: loadPickerData(processKey, () => {
        if (gone) return;
        setListFailures([...(pickers.data?.failures ?? [])]);
        canvas.current?.refreshPanel();
      }),
    };
    Promise.all([import("../../modeler-canvas"), source()])
      .then(([m, xml]) => m.openModeler(box.current as HTMLDivElement, panel.current as HTMLDivElement, xml, pickers))
      .then((c) => {
        if (gone) return c.destroy();
        canvas.current = c;
        setReady(true);
      })
      .catch((e: Error) => setLoadError(e.message));
    return () => {
      gone = true;
      canvas.current?.destroy();
    };
  }, [processKey]);
  const deploy = () =>
    run(async () => {
      setDone([]);
      setDone(await deployXml(processKey, await (canvas.current as ModelerCanvas).xml()));
    });
  return html`<div>
    <${Alert} error=${loadError ?? error} />
    ${listFailures.length ? html`<div class="alert" role="alert">${listFailures.map((f) => html`<p>${f}</p>`)}</div>` : null}
    ${
      done.length
        ? html`<div class="notice" role="status">${done.map((l) => html`<p>${l}</p>`)}
      <p><a href=${`#/modeler/definitions/${enc(processKey)}`}>${t("Versions: publish it")}</a></p></div>`
        : null
    }
    <p class="hint">${t("Drag elements from the palette on the left; click an element for its context menu (the wrench changes its type); double-click to rename; its properties (assignee, candidate groups, form, due date, …) are in the panel on the right. With the canvas focused: Ctrl+Z undoes, Delete removes the selection.")}</p>
    <div class="modeler-split">
      <div class="diagram modeler" ref=${box} role="region" aria-label=${t("Diagram editor of {key}", { key: processKey })}></div>
      <div class="properties" ref=${panel} role="region" aria-label=${t("Properties of the selected element")}></div>
    </div>
    <button type="button" class="primary" disabled=${!ready} onClick=${deploy}>${t("Deploy")}</button>
  </div>`;
}

/** Edits the latest version of a BPMN process in the modeler and deploys the result as a new version. */
export function EditDiagramPage({ processKey }: { processKey: string }) {
  return html`<section>
    <p><a href=${`#/modeler/definitions/${enc(processKey)}`}>← ${processKey}</a></p>
    <h1>${t("Edit {key}", { key: processKey })}</h1>
    <${Editor} processKey=${processKey} source=${() => latestXml(processKey)} />
  </section>`;
}

/** A new diagram: the key (the process id) and name first, then the modeler on a diagram holding a start event. */
export function NewDiagramPage() {
  const [key, setKey] = useState("");
  const [name, setName] = useState("");
  const [open, setOpen] = useState<{ key: string; name: string } | null>(null);
  const start = (e: Event) => {
    e.preventDefault();
    setOpen({ key: key.trim(), name: name.trim() });
  };
  if (open)
    return html`<section>
      <p><a href="#/modeler">← ${t("Modeler")}</a></p>
      <h1>${t("New process {key}", { key: open.key })}</h1>
      <${Editor} processKey=${open.key}
        source=${() => import("../../modeler-canvas").then((m) => m.newDiagram(open.key, open.name || open.key))} />
    </section>`;
  return html`<section class="narrow">
    <p><a href="#/modeler">← ${t("Modeler")}</a></p>
    <h1>${t("New BPMN diagram")}</h1>
    <form onSubmit=${start}>
      <div class="field"><label for="n-key">${t("Process key (its id: a letter, then letters, digits, _ . -)")}</label>
        <input id="n-key" required pattern="[A-Za-z_][A-Za-z0-9_.\\-]*" value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>
      <div class="field"><label for="n-name">${t("Name")}</label>
        <input id="n-name" value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <button type="submit" class="primary">${t("Open the modeler")}</button>
    </form>
  </section>`;
}
