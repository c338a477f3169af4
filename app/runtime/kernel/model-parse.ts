import { BpmnDeployError } from "../../../engine/errors";
import { type ParsedBpmn, parseBpmn } from "../../../engine/model/bpmn";
import { CmmnDeployError, type ParsedCmmn, parseCmmn } from "../../../engine/model/cmmn";
import { ModelLimitError, modelSizeRefusal } from "../../../engine/model/model-limits";

/**
 * Parsing and reading a large BPMN or CMMN file runs in a Bun worker (issue 28): the moddle XML readers and the model
 * readers are synchronous, and a model within the size limits (10,000 elements) still costs ~200 ms of the thread
 * that answers /health and every tenant. A small file (most models) parses here: a worker's start costs more than
 * its parse. At most WORKERS parses run at once; the rest wait their turn, off the event loop all the same. The
 * result is plain data (what the definitions store keeps as JSON) and a refusal the same error class as in-thread.
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

type Kind = "BPMN" | "CMMN";
type Answer<T> = { ok: true; parsed: T } | { ok: false; name: string; message: string };

const ERRORS: Record<string, new (message: string) => Error> = {
  ModelLimitError,
  BpmnDeployError,
  CmmnDeployError,
};

async function offThread<T>(kind: Kind, xml: string, inThread: (xml: string) => Promise<T>): Promise<T> {
  if (typeof xml !== "string" || xml.length < OFF_THREAD_CHARS) return inThread(xml);
  // Over a limit: refused by the same linear scan as in-thread, without starting a worker.
  const tooBig = modelSizeRefusal(xml, kind);
  if (tooBig) throw kind === "BPMN" ? new ModelLimitError(tooBig) : new CmmnDeployError(tooBig);
  const release = await slot();
  const worker = new Worker(new URL("./model-parse-worker.ts", import.meta.url).href);
  try {
    const answer = await new Promise<Answer<T>>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<Answer<T>>) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(`the model parser failed: ${e.message}`));
      worker.postMessage({ kind, xml });
    });
    if (!answer.ok) throw new (ERRORS[answer.name] ?? Error)(answer.message);
    return answer.parsed;
  } finally {
    worker.terminate();
    release();
  }
}

/** parseBpmn, off the event loop for a large file; the same result and the same errors. */
export const parseBpmnOffThread = (xml: string): Promise<ParsedBpmn> => offThread("BPMN", xml, parseBpmn);

/** parseCmmn, off the event loop for a large file; the same result and the same errors. */
export const parseCmmnOffThread = (xml: string): Promise<ParsedCmmn> => offThread("CMMN", xml, parseCmmn);
