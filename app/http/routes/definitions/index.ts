import { createRouter } from "../../router";
import { registerDefinitionDesign } from "./design";
import { registerDefinitionReads } from "./read";

/** /a/definitions: deploy first so `deploy` is never taken for a key. */
export function definitionsRouter() {
  const r = createRouter();
  registerDefinitionDesign(r);
  registerDefinitionReads(r);
  return r;
}
