import { createRouter } from "../../router";
import { registerTaskAiSuggest } from "./ai-suggest";
import { registerTaskOperations } from "./operations";
import { registerTaskQueries } from "./queries";

/** /a/tasks: `completed` is registered before `/{id}`. */
export function tasksRouter() {
  const r = createRouter();
  registerTaskQueries(r);
  registerTaskOperations(r);
  registerTaskAiSuggest(r);
  return r;
}
