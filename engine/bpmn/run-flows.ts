import { ExpressionError, UnprocessableError } from "../errors";
import { isTrue } from "../expressions";
import type { ElementModel, FlowModel } from "../model/bpmn/types";
import { RunTree } from "./run-tree";
import type { ExecutionRecord } from "./state";

/**
 * Which outgoing flows a token takes: the conditions of a command's run, in model order. A layer of its own between the
 * execution tree (run-tree.ts) and the lifecycle (run.ts), so that each stays a file one can read whole.
 */
export class RunFlows extends RunTree {
  /** Whether a flow's condition holds: FEEL or JUEL at once, JavaScript (a promise) in the script pool. */
  flowTrue(token: ExecutionRecord, f: FlowModel): boolean | Promise<boolean> {
    if (f.invalid) throw new ExpressionError(`sequence flow '${f.id}': ${f.invalid}`);
    if (!f.condition) return true;
    if (f.language === "javascript") return this.runJavaScript(token, f.condition, "condition").then(isTrue);
    return this.evalCondition(token, f.condition);
  }

  /**
   * Flowable's rule for activities: unconditional and true flows; the default only when nothing else holds. The
   * conditions are evaluated in model order; the answer is a promise once one of them is JavaScript.
   */
  chooseFlows(token: ExecutionRecord, el: ElementModel): FlowModel[] | Promise<FlowModel[]> {
    if (!el.outgoing.length) return [];
    const flows = this.model(token).flows;
    const candidates = el.outgoing.filter((id) => id !== el.default).map((id) => flows[id]);
    const taken: FlowModel[] = [];
    const finish = () => {
      if (!taken.length && el.default) taken.push(flows[el.default]);
      if (!taken.length)
        throw new UnprocessableError(
          `No outgoing sequence flow of '${el.id}' could be selected: no condition holds and there is no default flow`,
        );
      return taken;
    };
    for (let i = 0; i < candidates.length; i++) {
      const holds = this.flowTrue(token, candidates[i]);
      if (typeof holds !== "boolean")
        return (async () => {
          if (await holds) taken.push(candidates[i]);
          for (const f of candidates.slice(i + 1)) if (await this.flowTrue(token, f)) taken.push(f);
          return finish();
        })();
      if (holds) taken.push(candidates[i]);
    }
    return finish();
  }

  /** The first outgoing flow whose condition holds, in model order (exclusive gateways), or undefined. */
  firstTrueFlow(token: ExecutionRecord, el: ElementModel): FlowModel | undefined | Promise<FlowModel | undefined> {
    const flows = this.model(token).flows;
    const candidates = el.outgoing.filter((id) => id !== el.default).map((id) => flows[id]);
    for (let i = 0; i < candidates.length; i++) {
      const holds = this.flowTrue(token, candidates[i]);
      if (typeof holds !== "boolean")
        return (async () => {
          if (await holds) return candidates[i];
          for (const f of candidates.slice(i + 1)) if (await this.flowTrue(token, f)) return f;
          return undefined;
        })();
      if (holds) return candidates[i];
    }
    return undefined;
  }
}
