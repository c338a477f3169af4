/** FEEL variables visible to an expression: names to FEEL values. */
export type Vars = Record<string, unknown>;

/** Per-call bookkeeping threaded through evaluators; the top decision's table hits end up in `matchedRules`. */
export interface EvalState {
  decision: string;
  matchedRules: string[];
  depth: number;
}

/** A compiled boxed expression: evaluates against the variables in scope. */
export type Evaluator = (vars: Vars, state: EvalState) => unknown;

/** A compiled unary test: does `input` satisfy the test, given the variables in scope. */
export type UnaryTest = (input: unknown, vars: Vars) => boolean;

export type HitPolicy = "UNIQUE" | "FIRST" | "PRIORITY" | "ANY" | "COLLECT" | "RULE ORDER" | "OUTPUT ORDER";
export type Aggregation = "SUM" | "MIN" | "MAX" | "COUNT";

/** The JSON form of a decision table, used both for reading and for editing its rules. */
export interface JsonTable {
  hitPolicy: HitPolicy;
  aggregation?: Aggregation;
  inputs: { id: string; label?: string; expression: string; typeRef?: string; inputValues?: string }[];
  outputs: {
    id: string;
    name?: string;
    label?: string;
    typeRef?: string;
    outputValues?: string;
    defaultOutputEntry?: string;
  }[];
  rules: { id: string; inputEntries: string[]; outputEntries: string[]; description?: string }[];
}

export type BoxedKind =
  | "decisionTable"
  | "literalExpression"
  | "context"
  | "list"
  | "relation"
  | "invocation"
  | "functionDefinition"
  | "conditional"
  | "filter"
  | "for"
  | "some"
  | "every";

export interface CompiledExpression {
  kind: BoxedKind;
  typeRef?: string;
  evaluate: Evaluator;
  /** Source of a decision table, kept for the JSON view and edits. */
  table?: JsonTable;
}

/** A declared type (itemDefinition), resolved so that inputs can be converted and checked. */
export interface TypeDef {
  name: string;
  typeRef?: string;
  isCollection: boolean;
  components?: Record<string, TypeDef>;
  allowedValues?: { text: string; test: UnaryTest };
}

export interface DecisionDef {
  kind: "decision";
  id: string;
  name: string;
  typeRef?: string;
  requiredDecisions: string[];
  requiredInputs: string[];
  requiredKnowledge: string[];
  /** requirements on elements of imported models: their values appear in the context named by the import */
  imported?: ImportedRequirement[];
  logic?: CompiledExpression;
}

/** A requirement on an element of an imported model (`href="namespace#id"`). */
export interface ImportedRequirement {
  import: string;
  id: string;
  kind: "decision" | "input" | "knowledge";
}

export interface InputDataDef {
  kind: "inputData";
  id: string;
  name: string;
  typeRef?: string;
}

export interface BkmDef {
  kind: "bkm";
  id: string;
  name: string;
  parameters: { name: string; typeRef?: string }[];
  requiredKnowledge: string[];
  body?: CompiledExpression;
}

export interface DecisionServiceDef {
  kind: "decisionService";
  id: string;
  name: string;
  outputDecisions: string[];
  encapsulatedDecisions: string[];
  inputDecisions: string[];
  inputData: string[];
}

export type DrgDef = DecisionDef | InputDataDef | BkmDef | DecisionServiceDef;

/** A parsed and compiled DMN model: plain data plus compiled closures, safe to cache and share between calls. */
export interface DmnModel {
  id: string;
  name: string;
  namespace?: string;
  /** Every DRG element by id. */
  elements: Record<string, DrgDef>;
  /** DRG element ids by name (names are how FEEL and the TCK refer to them). */
  idsByName: Record<string, string>;
  types: Record<string, TypeDef>;
  /** imported DMN models by import name */
  imports?: Record<string, DmnModel>;
}

/** What `evaluateDecision` returns (the shape of the evaluate route). */
export interface DecisionResult {
  result: unknown;
  matchedRules: string[];
}
