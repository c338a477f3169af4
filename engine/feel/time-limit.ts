import { FeelFunction, FeelRange } from "feelin";
// installs its own FeelRange.map first, so that the deadline wrapper below covers it too
import "./range-iteration";

/**
 * The evaluation-time limit of one FEEL evaluation (issue 17, defect 1). feelin interprets synchronously on the event
 * loop, so a pathological expression (`for x in 1..1e9 ...`, exponential recursion, a cartesian product of ranges)
 * would stall every request. Its unbounded work always goes through a function call or the enumeration of a range,
 * so those two points check a deadline; once it has passed, every further check throws at once and the evaluation
 * unwinds, reported as an evaluation error naming the limit.
 */
// 80 ms, so that the limit plus the unwinding stays within the 100 ms stall target. Honest recursion is far below it: a
// recursive BKM computing fact(10) (ten nested evaluations, each parsed again by feelin, sharing this deadline) takes
// 2.6 ms warm on the 2-core machine (measured 2026-11-25), and the DMN TCK passes whole under it.
export const FEEL_TIME_LIMIT_MS = 80;

let limitMs = FEEL_TIME_LIMIT_MS;
let deadline = Number.POSITIVE_INFINITY;
let depth = 0;
let expired = false;

export class FeelTimeLimitError extends Error {
  constructor() {
    super(`the expression ran longer than its evaluation-time limit of ${limitMs} ms and was stopped`);
  }
}

function check(): void {
  if (expired || performance.now() > deadline) {
    expired = true;
    throw new FeelTimeLimitError();
  }
}

// Installed once per process on feelin's own classes (the library is not modified on disk).
const invoke = FeelFunction.prototype.invoke;
FeelFunction.prototype.invoke = function (this: FeelFunction, ...args: Parameters<typeof invoke>) {
  check();
  return invoke.apply(this, args);
};
const rangeMap = FeelRange.prototype.map;
FeelRange.prototype.map = function <T>(this: FeelRange, fn: (v: unknown) => T): T[] {
  let n = 0;
  return rangeMap.call(this, (v: unknown) => {
    if ((++n & 1023) === 0) check();
    return fn(v);
  }) as T[];
};

/**
 * Runs one evaluation under the limit (nested evaluations share the outermost deadline). Returns what `run` returned,
 * or a FeelTimeLimitError when the deadline passed, even if feelin swallowed the throw into a null somewhere.
 */
export function underTimeLimit<T>(run: () => T): T | FeelTimeLimitError {
  if (depth === 0) {
    deadline = performance.now() + limitMs;
    expired = false;
  }
  depth++;
  try {
    const value = run();
    return expired ? new FeelTimeLimitError() : value;
  } catch (e) {
    if (expired) return new FeelTimeLimitError();
    throw e;
  } finally {
    depth--;
    if (depth === 0) deadline = Number.POSITIVE_INFINITY;
  }
}

/** Tests set a smaller or larger limit; returns the previous one. */
export function setFeelTimeLimit(ms: number): number {
  const previous = limitMs;
  limitMs = ms;
  return previous;
}
