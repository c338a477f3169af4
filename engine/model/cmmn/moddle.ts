import CmmnModdle from "cmmn-moddle";

/** Any moddle object; the model reader reads it defensively. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Moddle = any;

export interface ModdleResult {
  definitions: Moddle;
  warnings: string[];
}

/** cmmn-moddle 5 still has the callback API: this is the one place that adapts it to a promise. */
export function readCmmnXml(xml: string): Promise<ModdleResult> {
  const moddle = CmmnModdle();
  return new Promise((resolve, reject) => {
    try {
      moddle.fromXML(xml, (err, definitions, context) => {
        if (err) reject(err);
        else resolve({ definitions, warnings: (context?.warnings ?? []).map((w) => String(w.message)) });
      });
    } catch (e) {
      reject(e);
    }
  });
}
