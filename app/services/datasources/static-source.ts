import type { StaticConfigT } from "./kinds";

const same = (a: unknown, b: unknown) => String(a ?? "").toLowerCase() === String(b ?? "").toLowerCase();

/**
 * Rows of a STATIC source, filtered by the parameters: each parameter with a value keeps the rows whose field of that
 * name equals it (as text, case-insensitive); `search` keeps rows with any field containing it. Empty values filter nothing.
 */
export function runStatic(config: StaticConfigT, parameters: Record<string, unknown>): Record<string, unknown>[] {
  const active = Object.entries(parameters).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return config.rows.filter((row) =>
    active.every(([name, value]) => {
      if (name === "search") {
        const needle = String(value).toLowerCase();
        return Object.values(row).some((cell) =>
          String(cell ?? "")
            .toLowerCase()
            .includes(needle),
        );
      }
      return same(row[name], value);
    }),
  );
}
