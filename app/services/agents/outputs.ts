import { UnprocessableError } from "../errors";
import type { OutputVariable } from "./store";

/** An output value of the declared type (numbers and booleans given as strings are read), else INVALID_OUTPUT. */
export function checkOutput(decl: OutputVariable, value: unknown): unknown {
  const bad = () =>
    new InvalidOutput(`output '${decl.name}' must be of type ${decl.type}, got ${JSON.stringify(value)}`);
  switch (decl.type) {
    case "string":
      if (typeof value === "string") return value;
      if (typeof value === "number") return String(value);
      throw bad();
    case "number": {
      const n = typeof value === "number" ? value : typeof value === "string" && value.trim() ? Number(value) : NaN;
      if (Number.isFinite(n)) return n;
      throw bad();
    }
    case "boolean":
      if (typeof value === "boolean") return value;
      if (value === "true" || value === "false") return value === "true";
      throw bad();
    case "date":
      if (typeof value === "string" && !Number.isNaN(Date.parse(value))) return value;
      throw bad();
    default:
      return value;
  }
}

/** The model's output does not fit the agent's declared outputs. */
export class InvalidOutput extends UnprocessableError {}

/**
 * The outputs of a finished run: what set_output wrote, completed from a final JSON object answer (models often
 * answer that way); every declared output must be there.
 */
export function finalOutputs(
  decls: OutputVariable[],
  set: Record<string, unknown>,
  text: string,
): Record<string, unknown> {
  const out = { ...set };
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  if (json) {
    try {
      const obj = JSON.parse(json) as Record<string, unknown>;
      for (const d of decls) if (!(d.name in out) && d.name in obj) out[d.name] = checkOutput(d, obj[d.name]);
    } catch (e) {
      if (e instanceof InvalidOutput) throw e;
    }
  }
  const missing = decls.filter((d) => !(d.name in out)).map((d) => d.name);
  if (missing.length) throw new InvalidOutput(`the agent did not produce the output(s) ${missing.join(", ")}`);
  return out;
}
