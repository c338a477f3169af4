import { evaluate, FeelFunction } from "feelin";
import { guardCallable } from "./feelin-call";
import { assertListSize, assertStringSize, FEEL_SIZE_LIMITS, writtenSize } from "./value-size";

/**
 * Size caps inside feelin's built-ins (issue 28). feelin's built-ins run as single native calls (a `string join` of a
 * thousand 300 KB strings built 300 MB before any deadline check could run), so each invocation is checked here, on
 * feelin's own FeelFunction class as time-limit.ts does: before the call where the arguments tell the size of the
 * result, after it for every result. A refusal fails the evaluation with an error naming the cap.
 */

type Check = (args: unknown[]) => void;
const CHECKS = new Map<unknown, Check>();

function before(name: string, check: Check): void {
  const fn = evaluate(name).value; // a built-in's name alone evaluates to feelin's own function
  if (typeof fn === "function") CHECKS.set(fn, check);
}

const lengthOf = (v: unknown) => (Array.isArray(v) ? v.length : 1);

before("string join", ([list, delimiter]) => {
  if (!Array.isArray(list)) return;
  const d = typeof delimiter === "string" ? delimiter.length : 0;
  let n = 0;
  for (let i = 0; i < list.length && n <= FEEL_SIZE_LIMITS.stringChars; i++)
    if (typeof list[i] === "string") n += list[i].length + d;
  assertStringSize(n, "string join");
});
before("string", ([from]) => assertStringSize(writtenSize(from), "string()"));
for (const name of ["concatenate", "union"])
  before(name, (lists) =>
    assertListSize(
      lists.reduce<number>((n, l) => n + lengthOf(l), 0),
      name,
    ),
  );
before("append", ([list, ...items]) => assertListSize(lengthOf(list) + items.length, "append"));

/** The arguments of an invocation by position, whether FEEL passed them by position or by name. */
function positional(fn: FeelFunction, args: unknown): unknown[] {
  if (Array.isArray(args)) return args;
  const named = (args ?? {}) as Record<string, unknown>;
  return fn.parameterNames.map((p) => named[p.replace(/^\.\.\./, "")]);
}

function checkResult(r: unknown): true {
  if (typeof r === "string") assertStringSize(r.length, "a function");
  else if (Array.isArray(r)) assertListSize(r.length, "a function");
  return true;
}

// guardCallable parks what a check throws as the evaluation's error (feelin would turn a throw into null).
const checked = guardCallable((check: Check, args: unknown[]) => {
  check(args);
  return true;
});
const resultChecked = guardCallable(checkResult);

const invoke = FeelFunction.prototype.invoke;
FeelFunction.prototype.invoke = function (this: FeelFunction, ...args: Parameters<typeof invoke>) {
  const check = CHECKS.get((this as unknown as { fn: unknown }).fn);
  if (check && checked(check, positional(this, args[0])) === null) return null;
  const r = invoke.apply(this, args);
  return resultChecked(r) === null ? null : r;
};
