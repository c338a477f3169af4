// Worker entry: parses one BPMN file off the event loop (parse-off-thread.ts) and posts the plain models back.
import { parseBpmn } from "../../../engine/model/bpmn";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<string>) => {
  try {
    self.postMessage({ ok: true, parsed: await parseBpmn(event.data) });
  } catch (e) {
    const err = e as Error;
    self.postMessage({ ok: false, name: err?.name ?? "Error", message: err?.message ?? String(e) });
  }
};
