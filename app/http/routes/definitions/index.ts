import { createRouter } from "../../router";
import { registerDefinitionDesign } from "./design";
import { registerDefinitionReads } from "./read";
import { registerDefinitionVariables } from "./variables";

/** /a/definitions: deploy first so `deploy` is never taken for a key. */
export function definitionsRouter() {
  const r = createRouter();
  registerDefinitionDesign(r);
  registerDefinitionReads(r);
  registerDefinitionVariables(r);
  return r;
}
