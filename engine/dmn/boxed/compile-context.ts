import type { TypeDef } from "../types";

/** What every boxed-expression compiler needs besides the element and the names in scope. */
export interface CompileContext {
  types: Record<string, TypeDef>;
  /** Name of the decision or BKM being compiled, carried into evaluation errors. */
  owner: string;
}
