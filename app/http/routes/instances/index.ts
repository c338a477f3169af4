import { createRouter } from "../../router";
import { registerInstanceControl } from "./control";
import { registerInstanceIntegration } from "./integration";
import { registerInstanceStartAndRead } from "./start-and-read";

/** /a/instances: the fixed paths (failed-jobs, search) are registered before /{id}. */
export function instancesRouter() {
  const r = createRouter();
  registerInstanceControl(r);
  registerInstanceStartAndRead(r);
  registerInstanceIntegration(r);
  return r;
}
