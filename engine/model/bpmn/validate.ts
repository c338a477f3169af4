import type { ProcessModel } from "./types";
import { structuralFindings } from "./validate-structure";

/** Options for validation: which delegate names the runtime knows. */
export interface ValidateOptions {
  knownDelegate?: (name: string) => boolean;
}

/**
 * Model smells worth a warning at deploy (the model still deploys): the structural findings (orphans, dead ends,
 * gateways with no default, no diagram) and service tasks with no or an unknown implementation.
 */
export function validateProcess(p: ProcessModel, opts: ValidateOptions = {}): string[] {
  const w = structuralFindings(p).map((f) => f.message);
  const pre = `Process '${p.id}': `;
  for (const el of Object.values(p.elements)) {
    const label = `${el.type} '${el.id}'${el.name ? ` (${el.name})` : ""}`;
    const impl = el.service?.delegate;
    if (el.service && !el.rule && !el.service.expression && !el.service.robot && el.type === "serviceTask") {
      if (!impl) w.push(`${pre}${label} has no implementation: it will raise an incident when reached`);
      else if (opts.knownDelegate && !opts.knownDelegate(impl))
        w.push(`${pre}${label} uses unknown implementation '${impl}': it will raise an incident when reached`);
    }
  }
  return w;
}
