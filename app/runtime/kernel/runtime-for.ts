import type { ProcessRuntime } from "../bpmn";
import type { CaseRuntime } from "../cmmn";
import type { RuntimeKind } from "./definitions-store";

/** The runtimes built on one kernel, by the kind of model they run. */
export interface Runtimes {
  BPMN: ProcessRuntime;
  CMMN: CaseRuntime;
}

/**
 * The one place that picks the process or the case runtime: callers learn the kind from the definition or the
 * instance (`kindOfDefinitionKey`, `kindOfInstance`) and ask for its runtime.
 */
export function createRuntimeRegistry() {
  const runtimes: Partial<Runtimes> = {};
  return {
    runtimes,
    runtimeFor<K extends RuntimeKind>(kind: K): Runtimes[K] {
      const rt = runtimes[kind];
      if (!rt) throw new Error(`No ${kind} runtime is built on this engine database`);
      return rt as Runtimes[K];
    },
  };
}
