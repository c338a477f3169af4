import {
  newQuickJSWASMModule,
  newVariant,
  type QuickJSWASMModule,
  RELEASE_SYNC,
  shouldInterruptAfterDeadline,
} from "quickjs-emscripten";
import { mib, type ScriptLimits } from "./script-limits";

/**
 * One script worker, a child process (terminating a thread does not stop WebAssembly that runs a long native call, so
 * a thread could not be stopped at the deadline; a process can): its own QuickJS WebAssembly module with a memory that cannot grow past the worker's cap, and a
 * fresh QuickJS runtime per evaluation. The pool (script-pool.ts) terminates it from outside past the deadline.
 */
export type ToWorker =
  | { type: "init"; limits: ScriptLimits }
  | { type: "run"; id: number; source: string; variables: Record<string, unknown> };
export type FromWorker =
  | { type: "ready" }
  | { type: "done"; id: number; ok: true; value: unknown; writes: Array<[string, unknown]>; wasmBytes: number }
  | { type: "done"; id: number; ok: false; message: string; wasmBytes: number; broken?: boolean };

// What the script sees: `execution` only. Values cross the boundary as JSON text, so no host object leaks in; a
// written value's length goes along, so an oversized one is refused before it is copied out of the sandbox (a long
// string before it is even turned into JSON, which would take longer than the deadline for 10 MiB).
const prelude = (maxBytes: number) => `const execution = Object.freeze({
  getVariable: (name) => { const v = __get(String(name)); return v === undefined ? undefined : JSON.parse(v); },
  setVariable: (name, value) => {
    if (typeof value === "string" && value.length > ${maxBytes}) return __set(String(name), "", value.length + 2);
    const j = JSON.stringify(value === undefined ? null : value);
    __set(String(name), j, j.length);
  },
});`;

let QuickJS: QuickJSWASMModule;
let limits: ScriptLimits;

class LimitError extends Error {}

function tooLarge(what: string, json: string | number): string | undefined {
  const chars = typeof json === "number" ? json : json.length;
  const bytes = chars > limits.valueBytes || typeof json === "number" ? chars : Buffer.byteLength(json);
  if (bytes > limits.valueBytes)
    return `${what} is larger than the limit of ${mib(limits.valueBytes)} for one variable (${bytes}${chars === bytes ? "" : "+"} bytes as JSON)`;
}

function evaluate(source: string, variables: Record<string, unknown>) {
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const vm = runtime.newContext();
  const written = new Map<string, string>();
  const writes: Array<[string, unknown]> = [];
  let refused: string | undefined;
  try {
    const get = vm.newFunction("__get", (h) => {
      const name = vm.getString(h);
      const json = written.has(name)
        ? written.get(name)
        : Object.hasOwn(variables, name)
          ? JSON.stringify(variables[name] ?? null)
          : undefined;
      return json === undefined ? vm.undefined : vm.newString(json);
    });
    const set = vm.newFunction("__set", (n, v, len) => {
      const name = vm.getString(n);
      // Checked on the length first: a 10 MiB value is never copied out of the sandbox.
      const over = tooLarge(`the value the script wrote to '${name.slice(0, 64)}'`, vm.getNumber(len));
      const json = over ? "" : vm.getString(v);
      refused ??= over ?? tooLarge(`the value the script wrote to '${name.slice(0, 64)}'`, json);
      if (refused) throw new LimitError(refused);
      written.set(name, json);
      writes.push([name, JSON.parse(json)]);
    });
    vm.setProp(vm.global, "__get", get);
    vm.setProp(vm.global, "__set", set);
    get.dispose();
    set.dispose();
    vm.unwrapResult(vm.evalCode(prelude(limits.valueBytes))).dispose();
    // The CPU-time cap counts the script only, not the setting up of its sandbox.
    const deadline = Date.now() + limits.cpuMs;
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
    const result = vm.evalCode(source, "script.js");
    // A refused write fails the script even when the script caught the error.
    if (refused) {
      (result.error ?? result.value).dispose();
      throw new LimitError(refused);
    }
    if (result.error) {
      const err = vm.dump(result.error) as { name?: string; message?: string } | string;
      result.error.dispose();
      const message = typeof err === "string" ? err : `${err?.name ?? "Error"}: ${err?.message ?? String(err)}`;
      if (Date.now() >= deadline && /interrupted/i.test(message))
        throw new LimitError(`the script ran longer than its CPU-time limit of ${limits.cpuMs} ms and was stopped`);
      if (/out of memory/i.test(message))
        throw new LimitError(`the script used more than its memory limit of ${mib(limits.memoryBytes)}`);
      throw new Error(message);
    }
    // The result as JSON inside the sandbox, so an oversized one is measured before it is copied out.
    const stringify = vm.unwrapResult(
      vm.evalCode(`(v) => {
        if (typeof v === "string" && v.length > ${limits.valueBytes}) return [v.length + 2, undefined];
        const j = JSON.stringify(v);
        return j === undefined ? [0, undefined] : [j.length, j];
      }`),
    );
    const pair = vm.unwrapResult(vm.callFunction(stringify, vm.undefined, result.value));
    stringify.dispose();
    result.value.dispose();
    const lenH = vm.getProp(pair, 0);
    const len = vm.getNumber(lenH);
    lenH.dispose();
    const over = tooLarge("the value of the script", len);
    if (over) {
      pair.dispose();
      throw new LimitError(over);
    }
    const jsonH = vm.getProp(pair, 1);
    const json = vm.typeof(jsonH) === "string" ? vm.getString(jsonH) : undefined;
    jsonH.dispose();
    pair.dispose();
    const resultOver = json === undefined ? undefined : tooLarge("the value of the script", json);
    if (resultOver) throw new LimitError(resultOver);
    return { value: json === undefined ? undefined : JSON.parse(json), writes };
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

// A child process of the service: messages from the pool over IPC; it ends with its parent.
const send = (message: FromWorker) => process.send?.(message);
process.on("disconnect", () => process.exit(0));
process.on("message", async (msg: ToWorker) => {
  if (msg.type === "init") {
    limits = msg.limits;
    const pages = (bytes: number) => Math.ceil(bytes / 65536);
    const memory = new WebAssembly.Memory({
      initial: pages(16 * 1024 * 1024),
      maximum: pages(limits.workerMemoryBytes),
    });
    QuickJS = await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
    // One evaluation before the first script: a cold module is slow, and that must not count against a script.
    evaluate("execution.setVariable('a', execution.getVariable('a')); 1", { a: 1 });
    send({ type: "ready" } satisfies FromWorker);
    return;
  }
  let answer: FromWorker;
  try {
    const { value, writes } = evaluate(msg.source, msg.variables);
    answer = { type: "done", id: msg.id, ok: true, value, writes, wasmBytes: 0 };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // QuickJS reports an exhausted WebAssembly memory as an exception of its own; either way it is the memory limit.
    const memory =
      !(e instanceof LimitError) && /out of memory|memory access out of bounds|Cannot enlarge/i.test(message);
    answer = {
      type: "done",
      id: msg.id,
      ok: false,
      message: memory ? `the script used more than its memory limit of ${mib(limits.memoryBytes)}` : message,
      wasmBytes: 0,
      // A trap inside the module (its memory exhausted mid-call) may leave it inconsistent: the pool replaces it.
      broken: e instanceof WebAssembly.RuntimeError,
    };
  }
  answer.wasmBytes = QuickJS.getWasmMemory().buffer.byteLength;
  send(answer);
});
