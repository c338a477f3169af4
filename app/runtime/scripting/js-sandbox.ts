import { getQuickJS, shouldInterruptAfterDeadline } from "quickjs-emscripten";
import type { ScriptSandbox } from "../../../engine/bpmn/deps";

/** Per evaluation: what a model's script may use before it is stopped. */
export const SCRIPT_LIMITS = { cpuMs: 80, memoryBytes: 16 * 1024 * 1024, stackBytes: 512 * 1024 };

// Loaded once: the WebAssembly module is read from node_modules here, never while a command runs.
const QuickJS = await getQuickJS();

// What the script sees: `execution` only. Values cross the boundary as JSON text, so no host object leaks in.
const PRELUDE = `const execution = Object.freeze({
  getVariable: (name) => { const v = __get(String(name)); return v === undefined ? undefined : JSON.parse(v); },
  setVariable: (name, value) => { __set(String(name), JSON.stringify(value === undefined ? null : value)); },
});`;

/**
 * JavaScript of models in a QuickJS WebAssembly sandbox, a fresh runtime per evaluation: no I/O, no timers, no access
 * to the service (only `execution.getVariable/setVariable`), a memory cap and a CPU-time cap. A runaway loop or an
 * allocation bomb ends in an Error naming the limit, which the engine turns into a failed command or job.
 */
export function createJsSandbox(limits = SCRIPT_LIMITS): ScriptSandbox {
  return {
    run(source, execution) {
      const runtime = QuickJS.newRuntime();
      runtime.setMemoryLimit(limits.memoryBytes);
      runtime.setMaxStackSize(limits.stackBytes);
      const deadline = Date.now() + limits.cpuMs;
      runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
      const vm = runtime.newContext();
      try {
        const get = vm.newFunction("__get", (h) => {
          const v = execution.getVariable(vm.getString(h));
          return v === undefined ? vm.undefined : vm.newString(JSON.stringify(v));
        });
        const set = vm.newFunction("__set", (n, v) => {
          execution.setVariable(vm.getString(n), JSON.parse(vm.getString(v)));
        });
        vm.setProp(vm.global, "__get", get);
        vm.setProp(vm.global, "__set", set);
        get.dispose();
        set.dispose();
        vm.unwrapResult(vm.evalCode(PRELUDE)).dispose();
        const result = vm.evalCode(source, "script.js");
        if (result.error) {
          const err = vm.dump(result.error) as { name?: string; message?: string } | string;
          result.error.dispose();
          const message = typeof err === "string" ? err : `${err?.name ?? "Error"}: ${err?.message ?? String(err)}`;
          if (Date.now() >= deadline && /interrupted/i.test(message))
            throw new Error(`the script ran longer than its CPU-time limit of ${limits.cpuMs} ms and was stopped`);
          if (/out of memory/i.test(message))
            throw new Error(`the script used more than its memory limit of ${limits.memoryBytes / 1024 / 1024} MB`);
          throw new Error(message);
        }
        const value = vm.dump(result.value);
        result.value.dispose();
        return value;
      } finally {
        vm.dispose();
        runtime.dispose();
      }
    },
  };
}
