import type { VNode } from "preact";
import { html } from "../../html";
import { EditDiagramPage, NewDiagramPage } from "./bpmn-editor";
import { DecisionPage } from "./decision";
import { EditDecisionPage, NewDecisionPage } from "./decision-editor";
import { DefinitionPage } from "./definition";
import { FormEditorPage } from "./form-editor";
import { ModelerHome } from "./home";
import { ProcessRolesPage } from "./process-roles";

/** The pages of the modeler area (`#/modeler/...`), or null for another route. */
export function modelerPage([a, b, c, d]: string[]): VNode | null {
  if (a !== "modeler") return null;
  if (b === "roles") return html`<${ProcessRolesPage} />` as VNode;
  if (b === "new") return html`<${NewDiagramPage} />` as VNode;
  if (b === "edit" && c) return html`<${EditDiagramPage} processKey=${c} />` as VNode;
  if (b === "definitions" && c) return html`<${DefinitionPage} processKey=${c} />` as VNode;
  if (b === "forms" && c) return html`<${FormEditorPage} processKey=${c} formKey=${d} />` as VNode;
  if (b === "new-decision") return html`<${NewDecisionPage} />` as VNode;
  if (b === "decisions" && c && d === "edit") return html`<${EditDecisionPage} decisionKey=${c} />` as VNode;
  if (b === "decisions" && c) return html`<${DecisionPage} decisionKey=${c} />` as VNode;
  return html`<${ModelerHome} />` as VNode;
}
