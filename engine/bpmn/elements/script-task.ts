import { compileFeelScript } from "../../expressions";
import type { Behaviour } from "../behaviour";

/** FEEL scripts: the value goes to the result variable; without one, a context result sets its entries as variables. */
export const scriptTask: Behaviour = {
  execute(run, token, el) {
    const s = el.script!;
    const value = compileFeelScript(s.body)(run.scope(token));
    if (s.resultVariable) run.setVar(token, s.resultVariable, value);
    else if (value && typeof value === "object" && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) run.setVar(token, k, v);
    run.leave(token);
  },
};
