import { createHttpDelegate, type HttpDelegateOptions } from "./http";
import { logDelegate } from "./log";
import { setVariablesDelegate } from "./set-variables";
import { throwErrorDelegate } from "./throw-error";
import type { Delegate, DelegateRegistry } from "./types";

/** Normalises `setVariables`, `SetVariablesDelegate`, `com.acme.SetVariables`, `set_variables` to one key. */
function norm(ref: string): string {
  const last =
    ref
      .trim()
      .replace(/^[$#]\{\s*|\s*\}$/g, "")
      .split(".")
      .pop() ?? "";
  return last
    .replace(/Delegate$/, "")
    .replace(/[-_\s]/g, "")
    .toLowerCase();
}

/** Registry of service-task implementations, with the built-ins set-variables, http, log and throw-error. */
export function createDelegateRegistry(opts: { http?: HttpDelegateOptions } = {}): DelegateRegistry {
  const byKey = new Map<string, Delegate>();
  const all: Delegate[] = [];
  const reg: DelegateRegistry = {
    get: (ref) => byKey.get(norm(ref)),
    list: () => all.map(({ name, description, parameters }) => ({ name, description, parameters })),
    register(d, aliases = []) {
      all.push(d);
      for (const n of [d.name, ...aliases]) byKey.set(norm(n), d);
    },
  };
  reg.register(setVariablesDelegate);
  reg.register(createHttpDelegate(opts.http));
  reg.register(logDelegate);
  reg.register(throwErrorDelegate, ["bpmn-error", "error"]);
  return reg;
}

export * from "./types";
