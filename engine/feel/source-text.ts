import { rangeTypeName } from "./range-types";
import { needsOwnParse } from "./temporal-parse";

// The text feelin is given: FEEL comments (DMN 1.5 §10.3.1.2: `// to the end of the line` and `/* ... */`), which
// feelin's grammar does not know, become spaces (offsets in error messages stay right), and `@"..."` literals holding
// a date with a signed or long year, which feelin's literal parser refuses, and those ending a day at 24:00:00,, become date() / date and time() calls
// (answered by temporal-functions.ts); `instance of range<T>`, which its grammar cannot read, names the type as
// range-types.ts binds it (also inside a list or context type). Strings and backquoted names are left alone. Texts without `/` or `@` are
// returned as they are, untouched.

const RANGE_TYPE = /instance\s+of\s+range\s*<([^<>]*)>/y;

export function feelSourceText(text: string): string {
  if (!text.includes("/") && !text.includes("@") && !text.includes("range")) return text;
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "`") {
      const end = closing(text, i);
      // an @ right before a string makes it a temporal literal
      const body = text.slice(i + 1, end - 1);
      if (c === '"' && out.endsWith("@") && needsOwnParse(body) && !body.includes("\\")) {
        out = `${out.slice(0, -1)}${body.includes("T") ? "date and time" : "date"}(${text.slice(i, end)})`;
      } else out += text.slice(i, end);
      i = end;
    } else if (c === "i" && text.startsWith("instance", i) && rangeType(text, i)) {
      const r = rangeType(text, i)!;
      out += r.text;
      i = r.next;
    } else if (
      c === "r" &&
      text.startsWith("range", i) &&
      innerRangeType(text, i) &&
      /[<,:]\s*$/.test(out) &&
      /\binstance\s+of\b/.test(out)
    ) {
      // range<T> inside a list or context type: list<range<number>>
      const r = innerRangeType(text, i)!;
      out += r.text;
      i = r.next;
    } else if (c === "/" && text[i + 1] === "/") {
      const nl = text.indexOf("\n", i);
      const end = nl < 0 ? text.length : nl;
      out += " ".repeat(end - i);
      i = end;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      if (close < 0) return text; // unterminated: leave it to the parser to report
      out += text.slice(i, close + 2).replace(/[^\n]/g, " ");
      i = close + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The index just past the quote that closes the one at `start` (or the text's end). */
function closing(text: string, start: number): number {
  const q = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === q) return i + 1;
  }
  return text.length;
}

const INNER_RANGE_TYPE = /range\s*<([^<>]*)>/y;

function innerRangeType(text: string, at: number): { text: string; next: number } | undefined {
  INNER_RANGE_TYPE.lastIndex = at;
  const m = INNER_RANGE_TYPE.exec(text);
  const name = m && rangeTypeName(m[1]);
  return name ? { text: name, next: at + m[0].length } : undefined;
}

function rangeType(text: string, at: number): { text: string; next: number } | undefined {
  RANGE_TYPE.lastIndex = at;
  const m = RANGE_TYPE.exec(text);
  const name = m && rangeTypeName(m[1]);
  return name ? { text: `instance of ${name}`, next: at + m[0].length } : undefined;
}
