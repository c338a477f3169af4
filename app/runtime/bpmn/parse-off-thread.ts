import { BpmnDeployError } from "../../../engine/errors";
import { type ParsedBpmn, parseBpmn } from "../../../engine/model/bpmn";
import { ModelLimitError, modelSizeRefusal } from "../../../engine/model/model-limits";

/**
 * Parsing and reading a large BPMN runs in a Bun worker (issue 28): moddle's XML reader and the process reader are
 * synchronous, and a model within the size limits (10,000 elements) still costs ~200 ms of the thread that answers
 * /health and every tenant. A small file (most models) parses here: a worker's start costs more than its parse.
 * At most WORKERS parses run at once; the rest wait their turn, off the event loop all the same.
 */
export const OFF_THREAD_CHARS = 64 * 1024;
const WORKERS = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= WORKERS) await new Promise<void>((r) => waiting.push(r));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

type Answer = { ok: true; parsed: ParsedBpmn } | { ok: false; name: string; message: string };

// The worker's refusal, as the same error class the engine throws in-thread (so the HTTP status is the same).
function rebuild(a: Extract<Answer, { ok: false }>): Error {
  if (a.name === "ModelLimitError") return new ModelLimitError(a.message);
  if (a.name === "BpmnDeployError") return new BpmnDeployError(a.message);
  return new Error(a.message);
}

/** parseBpmn, off the event loop for a large file; the same result and the same errors. */
export async function parseBpmnOffThread(xml: string): Promise<ParsedBpmn> {
  if (typeof xml !== "string" || xml.length < OFF_THREAD_CHARS) return parseBpmn(xml);
  // Over a limit: refused here by the same linear scan, without starting a worker.
  const tooBig = modelSizeRefusal(xml, "BPMN");
  if (tooBig) throw new ModelLimitError(tooBig);
  const release = await slot();
  const worker = new Worker(new URL("./parse-worker.ts", import.meta.url).href);
  try {
    const answer = await new Promise<Answer>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<Answer>) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(`the model parser failed: ${e.message}`));
      worker.postMessage(xml);
    });
    if (!answer.ok) throw rebuild(answer);
    return answer.parsed;
  } finally {
    worker.terminate();
    release();
  }
}
