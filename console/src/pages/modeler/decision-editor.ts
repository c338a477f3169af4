import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, hasRole } from "../../api";
import { Alert, valueOf } from "../../controls";
import type { DmnCanvas, DmnView } from "../../dmn-canvas";
import { html } from "../../html";
import { useAction } from "../../use-load";
import { DECISION_KEY_PATTERN, newDecisionXml, refusalLines } from "./decision-template";
import { deployFile } from "./deploy";
import { t } from "../../i18n";

const enc = encodeURIComponent;
const KIND: Record<string, () => string> = {
  drd: () => t("Diagram (DRD)"),
  decisionTable: () => t("Table"),
  literalExpression: () => t("Literal expression"),
  boxedExpression: () => t("Boxed expression"),
};

/** Deploys the edited file: PUT a new version of `key`, or (a new decision) POST it as a .dmn file. */
async function deployDmn(key: string, xml: string, isNew: boolean): Promise<string> {
  const file = new File([xml], `${key}.dmn`, { type: "application/xml" });
  if (isNew) return (await deployFile(file)).join(" ");
  const body = new FormData();
  body.append("file", file, file.name);
  const d = await api<{ key: string; version: number }>("PUT", `/a/decisions/${enc(key)}`, body);
  return t("Decision {key} deployed as version {version}.", { key: d.key, version: d.version });
}

/**
 * dmn-js (lazy chunk) on `source`'s XML, opened on decision `decisionKey`'s table: a button per view of the file (the
 * DRD, each decision), and Deploy. A refused deploy shows the server's reason with its field errors.
 */
function DmnEditor({
  decisionKey,
  source,
  isNew,
}: {
  decisionKey: string;
  source: () => Promise<string>;
  isNew: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<DmnCanvas | null>(null);
  const [views, setViews] = useState<{ all: DmnView[]; active: DmnView | null }>({ all: [], active: null });
  const [done, setDone] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let gone = false;
    const show = () => canvas.current && setViews({ all: canvas.current.views(), active: canvas.current.active() });
    Promise.all([import("../../dmn-canvas"), source()])
      .then(([m, xml]) => m.openDmnEditor(box.current as HTMLDivElement, xml, decisionKey, () => show()))
      .then((c) => {
        if (gone) return c.destroy();
        canvas.current = c;
        show();
      })
      .catch((e: Error) => setLoadError(e.message));
    return () => {
      gone = true;
      canvas.current?.destroy();
      canvas.current = null;
    };
  }, [decisionKey]);
  const deploy = async () => {
    setDone(null);
    setRefusal([]);
    setBusy(true);
    try {
      setDone(await deployDmn(decisionKey, await (canvas.current as DmnCanvas).xml(), isNew));
    } catch (e) {
      setRefusal(e instanceof ApiError ? refusalLines(e) : [(e as Error).message]);
    } finally {
      setBusy(false);
    }
  };
  const ready = views.all.length > 0;
  return html`<div>
    ${loadError ? html`<div class="alert" role="alert">${t("This file cannot be opened in the editor: {reason}", { reason: loadError })}</div>` : null}
    ${refusal.length ? html`<div class="alert" role="alert">${refusal.map((l) => html`<p>${l}</p>`)}</div>` : null}
    ${
      done
        ? html`<div class="notice" role="status"><p>${done}</p>
            <p><a href=${`#/modeler/decisions/${enc(decisionKey)}`}>${t("Try it")}</a></p></div>`
        : null
    }
    <p class="hint">${t("Click a cell to edit it; the + under the table adds a rule and the + beside a column's heading an input or output; double-click a heading to change its label, expression and type; right-click a cell for more (add, remove, copy rules and columns); the hit policy is a list. The buttons open the other parts of the file.")}</p>
    <div class="dmn-views" role="group" aria-label=${t("Parts of the file")}>
      ${views.all.map(
        (v) => html`<button type="button" aria-pressed=${views.active?.id === v.id && views.active.type === v.type}
          onClick=${() => canvas.current?.open(v.id)}>${KIND[v.type]?.() ?? v.type}: ${v.name}</button>`,
      )}
    </div>
    <div class="dmn-editor" ref=${box} role="region" aria-label=${t("Decision editor of {key}", { key: decisionKey })}></div>
    <button type="button" class="primary" disabled=${!ready || busy} onClick=${deploy}>${t("Deploy")}</button>
  </div>`;
}

/** The editor is the design area's: other roles get the reason and no editor (the server refuses them too). */
const mayEdit = () => hasRole("MODELER", "ADMIN");
const notAllowed = () =>
  html`<p class="alert" role="alert">${t("Editing decisions needs the Modeler or Admin role.")}</p>`;

/** Edits the latest version of a deployed decision (its XML from GET /a/decisions/{key}) and deploys the next one. */
export function EditDecisionPage({ decisionKey }: { decisionKey: string }) {
  return html`<section>
    <p><a href=${`#/modeler/decisions/${enc(decisionKey)}`}>← ${decisionKey}</a></p>
    <h1>${t("Edit decision {key}", { key: decisionKey })}</h1>
    ${mayEdit() ? null : notAllowed()}
    ${
      mayEdit() &&
      html`<${DmnEditor} decisionKey=${decisionKey} isNew=${false}
      source=${() => api<{ xml: string }>("GET", `/a/decisions/${enc(decisionKey)}`).then((d) => d.xml)} />`
    }
  </section>`;
}

/** A new decision: its key and name first, then the editor on a small template table to change and deploy. */
export function NewDecisionPage() {
  const [key, setKey] = useState("");
  const [name, setName] = useState("");
  const [open, setOpen] = useState<{ key: string; name: string } | null>(null);
  const [taken, setTaken] = useState<string | null>(null);
  const { error, run } = useAction();
  // Deploying a file under a key in use would make it that decision's next version: a new one needs a free key. The
  // list is asked rather than the key itself, whose 404 Chromium would log as an error.
  const start = (e: Event) => {
    e.preventDefault();
    setTaken(null);
    const k = key.trim();
    return run(async () => {
      const all = await api<{ key: string }[]>("GET", "/a/decisions");
      if (all.some((d) => d.key === k)) setTaken(k);
      else setOpen({ key: k, name: name.trim() });
    });
  };
  if (open)
    return html`<section>
      <p><a href="#/modeler">← ${t("Modeler")}</a></p>
      <h1>${t("New decision {key}", { key: open.key })}</h1>
      <${DmnEditor} decisionKey=${open.key} isNew=${true}
        source=${() => Promise.resolve(newDecisionXml(open.key, open.name))} />
    </section>`;
  if (!mayEdit())
    return html`<section class="narrow"><p><a href="#/modeler">← ${t("Modeler")}</a></p>
      <h1>${t("New decision table")}</h1>${notAllowed()}</section>`;
  return html`<section class="narrow">
    <p><a href="#/modeler">← ${t("Modeler")}</a></p>
    <h1>${t("New decision table")}</h1>
    <p>${t("It starts as a small table (an amount in, a result out, two rules) to change in the editor.")}</p>
    <form onSubmit=${start}>
      <${Alert} error=${error} />
      ${
        taken
          ? html`<div class="alert" role="alert"><p>${t("A decision {key} exists already.", { key: taken })}</p>
              <p><a href=${`#/modeler/decisions/${enc(taken)}/edit`}>${t("Edit {key}", { key: taken })}</a> ${t("or choose another key.")}</p></div>`
          : null
      }
      <div class="field"><label for="nd-key">${t("Decision key (its id: a letter, then letters, digits, _ . -)")}</label>
        <input id="nd-key" required pattern=${DECISION_KEY_PATTERN} value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>
      <div class="field"><label for="nd-name">${t("Name")}</label>
        <input id="nd-name" value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <button type="submit" class="primary">${t("Open the editor")}</button>
    </form>
  </section>`;
}
