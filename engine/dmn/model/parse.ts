import type { DmnModel } from "../types";
import { compileDefinitions } from "./compile";
import { readDefinitions } from "./moddle";

/** Parse DMN 1.1 to 1.5 XML and compile every expression once; throws DmnParseError naming the element at fault. */
export async function parseDmn(xml: string): Promise<DmnModel> {
  const { rootElement } = await readDefinitions(xml);
  return compileDefinitions(rootElement);
}
