import { createRouter } from "../../router";
import { registerTaskOperations } from "./operations";
import { registerTaskQueries } from "./queries";

/** /a/tasks: `completed` is registered before `/{id}`. */
export function tasksRouter() {
  const r = createRouter();
  registerTaskQueries(r);
  registerTaskOperations(r);
  return r;
}
