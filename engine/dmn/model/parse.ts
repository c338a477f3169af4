import type { DmnModel } from "../types";
import { compileDefinitions } from "./compile";
import { type ImportResolver, resolveImports } from "./imports";
import { readDefinitions } from "./moddle";

/**
 * Parse DMN 1.1 to 1.5 XML and compile every expression once; throws DmnParseError naming the element at fault.
 * `resolve` finds the models the file imports by namespace; without it a file with imports is refused.
 */
export async function parseDmn(xml: string, resolve?: ImportResolver): Promise<DmnModel> {
  const { rootElement } = await readDefinitions(xml);
  return compileDefinitions(rootElement, await resolveImports(rootElement, resolve));
}
