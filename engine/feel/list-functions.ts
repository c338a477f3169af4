import { FeelFunction } from "feelin";
import { feelEquality } from "./equality";

// list replace(list, position | match, newItem) as DMN 1.5 §10.3.4.4 and the TCK read it, where feelin's differs:
// a position counts from 1 (negative from the end; a fraction is truncated) and must lie inside the list; a match is
// a function of exactly (item, newItem) answering a boolean for every item. Anything else is null.

function listReplace(value: unknown, position: unknown, newItem: unknown, match: unknown) {
  // a single value where a list is expected is the list of it (§10.3.2.9.4 "singleton list")
  if (value === null || value === undefined) return null;
  const list = Array.isArray(value) ? value : [value];
  if (typeof position === "number") {
    if (match !== undefined && match !== null) return null;
    const p = Math.trunc(position);
    const index = p > 0 ? p - 1 : list.length + p;
    if (p === 0 || index < 0 || index >= list.length) return null;
    const out = [...list];
    out[index] = newItem;
    return out;
  }
  const matcher = position instanceof FeelFunction ? position : match;
  if (!(matcher instanceof FeelFunction) || (position != null && position !== matcher)) return null;
  if (matcher.parameterNames.length !== 2) return null;
  const out: unknown[] = [];
  for (const item of list) {
    const hit = matcher.invoke([item, newItem]);
    if (typeof hit !== "boolean") return null;
    out.push(hit ? newItem : item);
  }
  return out;
}

// list contains and index of compare items with FEEL's equality (feelin compares with ===, so no date, list or context
// was ever found: list contains([@"2020-01-01"], @"2020-01-01") was false).
const asList = (value: unknown) =>
  value === null || value === undefined ? null : Array.isArray(value) ? value : [value];

function listContains(value: unknown, element: unknown) {
  const list = asList(value);
  return list && list.some((item) => feelEquality(item, element) === true);
}

function indexOf(value: unknown, match: unknown) {
  const list = asList(value);
  if (!list) return null;
  const out: number[] = [];
  list.forEach((item, i) => feelEquality(item, match) === true && out.push(i + 1));
  return out;
}

export const LIST_FUNCTIONS: Record<string, FeelFunction> = {
  "list replace": new FeelFunction(listReplace, ["list", "position", "newItem", "match"]),
  "list contains": new FeelFunction(listContains, ["list", "element"]),
  "index of": new FeelFunction(indexOf, ["list", "match"]),
};
