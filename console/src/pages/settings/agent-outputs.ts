import { t } from "../../i18n";

/** The output variables of an agent as the configuration page edits them: one `name: type description` per line. */
export interface OutputVariable {
  name: string;
  type: string;
  description?: string;
}

export const OUTPUT_TYPES = ["string", "number", "boolean", "json", "date"] as const;

export function formatOutputs(vars: OutputVariable[]): string {
  return vars.map((v) => `${v.name}: ${v.type}${v.description ? ` ${v.description}` : ""}`).join("\n");
}

/** The lines read back, or the first line that cannot be (named by its number) so nothing half-read is saved. */
export function parseOutputs(text: string): { vars: OutputVariable[] } | { error: string } {
  const vars: OutputVariable[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const m = /^([^:\s]+)\s*:\s*(\S+)\s*(.*)$/.exec(line);
    if (!m || !(OUTPUT_TYPES as readonly string[]).includes(m[2]))
      return {
        error: t("Line {n}: write “name: type description”, the type one of {types}.", {
          n: i + 1,
          types: OUTPUT_TYPES.join(", "),
        }),
      };
    vars.push(m[3] ? { name: m[1], type: m[2], description: m[3] } : { name: m[1], type: m[2] });
  }
  return { vars };
}
