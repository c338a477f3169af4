import { BadRequestError } from "../errors";

export const PARAMETER_TYPES = ["string", "number", "boolean", "json"] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

/** A robot's parameter definition: a secret one is configured with a tenant variable's name, never a value. */
export interface ParameterDef {
  name: string;
  type: ParameterType;
  required: boolean;
  secret: boolean;
}

/** A configured secret parameter: the name of the tenant variable read when a job is handed to a runner. */
export interface SecretRef {
  variable: string;
}
export type RobotConfig = Record<string, unknown>;

const isRef = (v: unknown): v is SecretRef =>
  typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as SecretRef).variable === "string";

const fits = (type: ParameterType, v: unknown) =>
  type === "json" ||
  (type === "string" && typeof v === "string") ||
  (type === "number" && typeof v === "number" && Number.isFinite(v)) ||
  (type === "boolean" && typeof v === "boolean");

/** Parameter names are unique within a robot. */
export function checkParameterDefs(defs: ParameterDef[]): ParameterDef[] {
  const seen = new Set<string>();
  defs.forEach((d, i) => {
    if (seen.has(d.name))
      throw new BadRequestError(`Parameter '${d.name}' is defined twice`, [
        { field: `parameters.${i}.name`, message: "duplicate name" },
      ]);
    seen.add(d.name);
  });
  return defs;
}

/**
 * Checks a configuration against the definitions: known names only, values of the declared type, every required
 * parameter set, and each secret parameter given as `{variable: "<tenant variable>"}` naming an existing variable.
 */
export function checkConfig(defs: ParameterDef[], config: RobotConfig, variableExists: (name: string) => boolean) {
  const byName = new Map(defs.map((d) => [d.name, d]));
  const errors: { field: string; message: string }[] = [];
  for (const [name, v] of Object.entries(config)) {
    const d = byName.get(name);
    if (!d) errors.push({ field: `values.${name}`, message: "no such parameter" });
    else if (d.secret) {
      if (!isRef(v) || Object.keys(v as object).length !== 1)
        errors.push({ field: `values.${name}`, message: 'a secret parameter takes {"variable": "<tenant variable>"}' });
      else if (!variableExists(v.variable))
        errors.push({ field: `values.${name}`, message: `tenant variable '${v.variable}' does not exist` });
    } else if (v !== null && !fits(d.type, v)) errors.push({ field: `values.${name}`, message: `must be a ${d.type}` });
  }
  for (const d of defs)
    if (d.required && (config[d.name] === undefined || config[d.name] === null))
      errors.push({ field: `values.${d.name}`, message: "is required" });
  if (errors.length)
    throw new BadRequestError(
      `Invalid robot configuration: ${errors.map((e) => `${e.field} ${e.message}`).join("; ")}`,
      errors,
    );
  return config;
}

/** The values handed to a runner: secret references replaced by the variables' current values (null when gone). */
export function resolveConfig(defs: ParameterDef[], config: RobotConfig, read: (variable: string) => string | null) {
  const out: Record<string, unknown> = {};
  for (const d of defs) {
    const v = config[d.name];
    if (v === undefined) continue;
    out[d.name] = d.secret && isRef(v) ? read(v.variable) : v;
  }
  return out;
}
