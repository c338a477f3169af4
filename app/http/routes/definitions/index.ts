import { createRouter } from "../../router";
import { registerDefinitionDesign } from "./design";
import { registerDefinitionDocumentation } from "./documentation";
import { registerDefinitionReads } from "./read";
import { registerDefinitionValidation } from "./validate";
import { registerDefinitionVariables } from "./variables";

/** /a/definitions: deploy and validate first so neither is ever taken for a key. */
export function definitionsRouter() {
  const r = createRouter();
  registerDefinitionDesign(r);
  registerDefinitionValidation(r);
  registerDefinitionReads(r);
  registerDefinitionVariables(r);
  registerDefinitionDocumentation(r);
  return r;
}
