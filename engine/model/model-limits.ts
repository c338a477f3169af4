import { BadRequestError } from "../errors";

// The size of one model file (BPMN, CMMN, DMN), checked before any XML parser reads it (issue 28): a 4.2 MB BPMN of
// 60,000 tasks took 7-21 s to parse and validate on the shared event loop. Counting tags is one linear scan.

export const MODEL_LIMITS = {
  /** Bytes of one model file (UTF-8). */
  bytes: 4 * 1024 * 1024,
  /** XML elements of one model file (diagram shapes included). */
  elements: 10_000,
};

/** A model over a size limit: 400 on deploy, validate and AI validation (never a validation finding). */
export class ModelLimitError extends BadRequestError {}

/** Why a model file is over the limits, or null. */
export function modelSizeRefusal(xml: string, kind: "BPMN" | "CMMN" | "DMN"): string | null {
  const fmt = (n: number) => n.toLocaleString("en");
  // A UTF-8 byte is at least one UTF-16 unit, so only a long text needs counting.
  const bytes = xml.length > MODEL_LIMITS.bytes / 3 ? Buffer.byteLength(xml, "utf8") : xml.length;
  if (bytes > MODEL_LIMITS.bytes)
    return `The ${kind} model is ${fmt(bytes)} bytes, over the limit of ${fmt(MODEL_LIMITS.bytes)} bytes per model`;
  let elements = 0;
  for (let i = xml.indexOf("<"); i >= 0; i = xml.indexOf("<", i + 1)) {
    const c = xml.charCodeAt(i + 1);
    // a start tag: not </, <!, <?
    if (c !== 47 && c !== 33 && c !== 63 && ++elements > MODEL_LIMITS.elements)
      return `The ${kind} model has more than ${fmt(MODEL_LIMITS.elements)} XML elements, the limit per model`;
  }
  return null;
}
