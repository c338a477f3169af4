import { compileFeelScript, compileValue } from "../../expressions";
import type { Behaviour } from "../behaviour";

/**
 * Script tasks. FEEL: the value goes to the result variable; without one, a context result sets its entries as
 * variables. JUEL: the value of the expression. JavaScript: run in the sandbox port, where the script writes through
 * `execution.setVariable`; the value of its last expression goes to the result variable when there is one.
 */
export const scriptTask: Behaviour = {
  execute(run, token, el) {
    const s = el.script!;
    const done = (value: unknown) => {
      if (s.resultVariable) run.setVar(token, s.resultVariable, value ?? null);
      run.leave(token);
    };
    // JavaScript runs in the script pool: the command waits for it (before its write transaction) and goes on.
    if (s.format === "javascript") return run.runJavaScript(token, s.body, "script").then(done);
    if (s.format !== "feel") return done(compileValue(s.body)(run.scope(token)));
    const value = compileFeelScript(s.body)(run.scope(token));
    if (s.resultVariable) run.setVar(token, s.resultVariable, value);
    else if (value && typeof value === "object" && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) run.setVar(token, k, v);
    run.leave(token);
  },
};
