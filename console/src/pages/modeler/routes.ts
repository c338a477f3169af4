import type { VNode } from "preact";
import { html } from "../../html";
import { EditDiagramPage, NewDiagramPage } from "./bpmn-editor";
import { DecisionPage } from "./decision";
import { DefinitionPage } from "./definition";
import { FormEditorPage } from "./form-editor";
import { ModelerHome } from "./home";
import { ProcessRolesPage } from "./process-roles";
import { Pending, useLoad } from "../../use-load";

/** The decision editor's pages come with dmn-js: their code is a lazy chunk as well, so the first load stays as it was. */
function DecisionEditorRoute({ decisionKey }: { decisionKey?: string }) {
  const page = useLoad(() => import("./decision-editor"));
  if (!page.data) return html`<${Pending} error=${page.error} />`;
  return decisionKey
    ? html`<${page.data.EditDecisionPage} decisionKey=${decisionKey} />`
    : html`<${page.data.NewDecisionPage} />`;
}

/** The pages of the modeler area (`#/modeler/...`), or null for another route. */
export function modelerPage([a, b, c, d]: string[]): VNode | null {
  if (a !== "modeler") return null;
  if (b === "roles") return html`<${ProcessRolesPage} />` as VNode;
  if (b === "new") return html`<${NewDiagramPage} />` as VNode;
  if (b === "edit" && c) return html`<${EditDiagramPage} processKey=${c} />` as VNode;
  if (b === "definitions" && c) return html`<${DefinitionPage} processKey=${c} />` as VNode;
  if (b === "forms" && c) return html`<${FormEditorPage} processKey=${c} formKey=${d} />` as VNode;
  if (b === "new-decision") return html`<${DecisionEditorRoute} />` as VNode;
  if (b === "decisions" && c && d === "edit") return html`<${DecisionEditorRoute} decisionKey=${c} />` as VNode;
  if (b === "decisions" && c) return html`<${DecisionPage} decisionKey=${c} />` as VNode;
  return html`<${ModelerHome} />` as VNode;
}
