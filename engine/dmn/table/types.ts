import type { CompiledFeel } from "../feel-edge";
import type { Aggregation, HitPolicy, JsonTable, UnaryTest } from "../types";

export interface CompiledInput {
  id: string;
  label: string;
  text: string;
  typeRef?: string;
  expr: CompiledFeel;
  allowed?: { text: string; test: UnaryTest };
}

export interface CompiledOutput {
  id: string;
  name: string;
  typeRef?: string;
  /** The output values in priority order (PRIORITY and OUTPUT ORDER), when they are literals. */
  priorities?: unknown[];
  allowed?: { text: string; test: UnaryTest };
  defaultEntry?: CompiledFeel;
  /** Converts an output entry's value to the output's typeRef (non-conforming is null), when it names a known type. */
  conform?: (v: unknown) => unknown;
}

export interface CompiledRule {
  id: string;
  tests: UnaryTest[];
  outputs: CompiledFeel[];
  /** Source text of each output entry, for error messages. */
  outputTexts: string[];
}

export interface CompiledTable {
  id: string;
  owner: string;
  hitPolicy: HitPolicy;
  aggregation?: Aggregation;
  inputs: CompiledInput[];
  outputs: CompiledOutput[];
  rules: CompiledRule[];
  source: JsonTable;
}
