// Worker entry: parses one BPMN or CMMN file off the event loop (model-parse.ts) and posts the plain models back.
import { parseBpmn } from "../../../engine/model/bpmn";
import { parseCmmn } from "../../../engine/model/cmmn";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<{ kind: "BPMN" | "CMMN"; xml: string }>) => {
  try {
    const { kind, xml } = event.data;
    self.postMessage({ ok: true, parsed: kind === "BPMN" ? await parseBpmn(xml) : await parseCmmn(xml) });
  } catch (e) {
    const err = e as Error;
    self.postMessage({ ok: false, name: err?.name ?? "Error", message: err?.message ?? String(e) });
  }
};
