import { FeelFunction, toFeel } from "feelin";
import { makeFunction } from "../boxed/function-definition";
import { DmnEvaluationError } from "../errors";
import { coerceInput, conformOrNull } from "../coerce";
import { guardCallable } from "../feel-edge";
import { isContextValue } from "../../feel";
import type { BkmDef, DecisionDef, DecisionServiceDef, DmnModel, EvalState, Vars } from "../types";

/**
 * One evaluation request: the caller's variables, and each decision, input and function computed at
 * most once. Caller variables are visible to every decision (as in Camunda and Flowable models that
 * declare no inputData); declared inputs are converted to their typeRef on top of them.
 */
export class Session {
  private readonly decisions = new Map<string, { value: unknown; matchedRules: string[] }>();
  private readonly inputs = new Map<string, unknown>();
  private readonly functions = new Map<string, FeelFunction>();
  private readonly importSessions = new Map<string, Session>();
  private readonly base: Vars;

  constructor(
    readonly model: DmnModel,
    private readonly variables: Vars,
    /** Values standing in for decisions (a decision service's input decisions), by decision id. */
    private readonly given: Map<string, unknown> = new Map(),
  ) {
    this.base = {};
    for (const [k, v] of Object.entries(variables)) this.base[k] = toFeelDeep(v);
  }

  /** Evaluate a decision after what it requires; the result and its table's matched rules. */
  decision(d: DecisionDef, depth = 0): { value: unknown; matchedRules: string[] } {
    if (this.given.has(d.id)) return { value: this.given.get(d.id), matchedRules: [] };
    const cached = this.decisions.get(d.id);
    if (cached) return cached;
    const vars: Vars = { ...this.base };
    for (const id of d.requiredInputs) vars[this.model.elements[id].name] = this.input(id, d.name);
    for (const id of d.requiredDecisions)
      vars[this.model.elements[id].name] = this.decision(this.model.elements[id] as DecisionDef, depth + 1).value;
    for (const id of d.requiredKnowledge) vars[this.model.elements[id].name] = this.invocable(id);
    for (const r of d.imported ?? []) {
      const sub = this.sessionFor(r.import);
      const el = sub.model.elements[r.id];
      const v =
        r.kind === "decision"
          ? sub.decision(el as DecisionDef, depth + 1).value
          : r.kind === "input"
            ? sub.input(r.id, d.name)
            : sub.invocable(r.id);
      const ctx = vars[r.import];
      vars[r.import] = { ...(isContextValue(ctx) ? ctx : {}), [el.name]: v };
    }
    if (!d.logic)
      throw new DmnEvaluationError("the decision has no decision logic this engine can evaluate", { decision: d.name });
    const state: EvalState = { decision: d.name, matchedRules: [], depth };
    // the result is converted to the decision's variable type; a non-conforming one is null (DMN 1.5 §10.3.2.9.4)
    const value = conformOrNull(d.logic.evaluate(vars, state), d.typeRef, this.model.types);
    const out = { value, matchedRules: state.matchedRules };
    this.decisions.set(d.id, out);
    return out;
  }

  /**
   * The session of an imported model: the caller's variables, with those given under the import's name (`{lib: {...}}`)
   * on top, so the imported inputs can be given either way.
   */
  private sessionFor(importName: string): Session {
    let sub = this.importSessions.get(importName);
    if (!sub) {
      const own = this.variables[importName];
      sub = new Session(
        this.model.imports![importName],
        isContextValue(own) ? { ...this.variables, ...own } : this.variables,
      );
      this.importSessions.set(importName, sub);
    }
    return sub;
  }

  /** The caller's value for an inputData, converted to its declared type. */
  input(id: string, decision?: string): unknown {
    if (this.inputs.has(id)) return this.inputs.get(id);
    const def = this.model.elements[id];
    const raw = Object.hasOwn(this.variables, def.name) ? this.variables[def.name] : null;
    const v = coerceInput(raw, def.kind === "inputData" ? def.typeRef : undefined, this.model.types, {
      label: def.name,
      decision,
    });
    this.inputs.set(id, v);
    return v;
  }

  /** A BKM or decision service as a FEEL function value. */
  invocable(id: string): FeelFunction {
    const existing = this.functions.get(id);
    if (existing) return existing;
    const def = this.model.elements[id];
    const fn = def.kind === "bkm" ? this.bkmFunction(def) : this.serviceFunction(def as DecisionServiceDef);
    this.functions.set(id, fn);
    return fn;
  }

  private bkmFunction(b: BkmDef): FeelFunction {
    const body = b.body;
    if (!body) {
      return new FeelFunction(
        guardCallable(() => {
          throw new DmnEvaluationError("the business knowledge model has no logic", { decision: b.name });
        }),
        b.parameters.map((p) => p.name),
      );
    }
    const closure: Vars = {};
    const state: EvalState = { decision: b.name, matchedRules: [], depth: 0 };
    const fn = makeFunction(b.parameters, body, closure, state, { types: this.model.types, owner: b.name });
    // Filled after creation so that the BKM, and what it requires, can call themselves.
    closure[b.name] = fn;
    for (const id of b.requiredKnowledge) closure[this.model.elements[id].name] = this.invocable(id);
    return fn;
  }

  private serviceFunction(s: DecisionServiceDef): FeelFunction {
    const ids = [...s.inputData, ...s.inputDecisions];
    const params = ids.map((id) => this.model.elements[id].name);
    const impl = (...args: unknown[]) => {
      const vars: Vars = {};
      // arguments are model values: one that does not conform to the type of its inputData or input decision is null,
      // not a caller error
      params.forEach((p, i) => {
        const def = this.model.elements[ids[i]];
        const typeRef = def.kind === "inputData" || def.kind === "decision" ? def.typeRef : undefined;
        vars[p] = conformOrNull(args[i] ?? null, typeRef, this.model.types);
      });
      return evaluateService(this.model, s, vars).value;
    };
    return new FeelFunction(guardCallable(impl), params);
  }
}

/** Evaluate a decision service: its input decisions come from `variables`, its outputs are evaluated. */
export function evaluateService(
  model: DmnModel,
  s: DecisionServiceDef,
  variables: Vars,
): { value: unknown; matchedRules: string[] } {
  const given = new Map<string, unknown>();
  for (const id of s.inputDecisions) {
    const name = model.elements[id].name;
    given.set(id, Object.hasOwn(variables, name) ? toFeelDeep(variables[name]) : null);
  }
  const session = new Session(model, variables, given);
  const results = s.outputDecisions.map((id) => ({
    name: model.elements[id].name,
    ...session.decision(model.elements[id] as DecisionDef),
  }));
  const matchedRules = results.flatMap((r) => r.matchedRules);
  if (results.length === 1) return { value: results[0].value, matchedRules };
  const value: Record<string, unknown> = {};
  for (const r of results) value[r.name] = r.value;
  return { value, matchedRules };
}

// JS Dates and Temporal values become FEEL temporals; JSON stays as it is.
function toFeelDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(toFeelDeep);
  if (isContextValue(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toFeelDeep(x);
    return out;
  }
  return v === undefined ? null : toFeel(v);
}
