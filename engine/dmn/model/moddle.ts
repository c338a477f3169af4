import { DmnModdle, type ModdleElement, type ParseResult } from "dmn-moddle";
import { DmnParseError } from "../errors";
import { dmnPackage } from "./dmn15-types";
import { toDmn13 } from "./namespaces";
import { doctypeRefusal } from "../../model/doctype";
import { modelSizeRefusal } from "../../model/model-limits";

export type { ModdleElement };

// One instance: moddle keeps no per-document state, and building the type registry is the costly part.
const moddle = new DmnModdle({ dmn: dmnPackage });

/** Read DMN 1.1 to 1.5 XML into dmn-moddle's 1.3 object tree. */
export async function readDefinitions(xml: string): Promise<ParseResult> {
  if (typeof xml !== "string" || xml.trim() === "") throw new DmnParseError("empty DMN document");
  const tooBig = modelSizeRefusal(xml, "DMN");
  if (tooBig) throw new DmnParseError(tooBig);
  const doctype = doctypeRefusal(xml);
  if (doctype) throw new DmnParseError(doctype);
  let xml13: string;
  try {
    xml13 = await toDmn13(xml);
  } catch (e) {
    throw new DmnParseError(`cannot migrate DMN document: ${(e as Error).message}`);
  }
  let parsed: ParseResult;
  try {
    parsed = await moddle.fromXML(xml13, "dmn:Definitions");
  } catch (e) {
    throw new DmnParseError(`not a valid DMN document: ${(e as Error).message}`);
  }
  if (parsed.rootElement?.$type !== "dmn:Definitions") throw new DmnParseError("the root element is not <definitions>");
  for (const w of parsed.warnings) checkWarning(w.message);
  return parsed;
}

// moddle keeps going past what it cannot read; some of that would silently change the model's meaning.
function checkWarning(message: string): void {
  const duplicate = /duplicate ID <([^>]+)>/.exec(message);
  if (duplicate) throw new DmnParseError("duplicate id", duplicate[1]);
}

/** Serialise a (possibly edited) object tree back to DMN 1.3 XML. */
export async function writeDefinitions(definitions: ModdleElement): Promise<string> {
  const { xml } = await moddle.toXML(definitions, { format: true });
  return xml;
}

/** Create a new element of a dmn-moddle type (e.g. "dmn:DecisionRule"). */
export function createElement(type: string, attrs: Record<string, unknown> = {}): ModdleElement {
  return moddle.create(type, attrs);
}
