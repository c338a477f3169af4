import { ExpressionError } from "../errors";

// The JUEL subset's tokens: numbers, strings, identifiers and operators (word operators mapped to symbols).
export type Tok = { t: "num" | "str" | "id" | "op"; v: string };

const OPS = [
  "&&",
  "||",
  "==",
  "!=",
  "<=",
  ">=",
  "<",
  ">",
  "!",
  "(",
  ")",
  "[",
  "]",
  ".",
  "+",
  "-",
  "*",
  "/",
  "%",
  "?",
  ":",
  ",",
];
const WORD_OPS: Record<string, string> = {
  and: "&&",
  or: "||",
  not: "!",
  eq: "==",
  ne: "!=",
  lt: "<",
  gt: ">",
  le: "<=",
  ge: ">=",
  div: "/",
  mod: "%",
};

export function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(src.slice(i))!;
      out.push({ t: "num", v: m[0] });
      i += m[0].length;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1,
        s = "";
      while (j < src.length && src[j] !== c) {
        if (src[j] === "\\" && j + 1 < src.length) j++;
        s += src[j++];
      }
      if (j >= src.length) throw new ExpressionError(`unterminated string in expression: ${src}`);
      out.push({ t: "str", v: s });
      i = j + 1;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(src.slice(i))!;
      const w = m[0];
      out.push(WORD_OPS[w] ? { t: "op", v: WORD_OPS[w] } : { t: "id", v: w });
      i += w.length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExpressionError(`unexpected character '${c}' in expression: ${src}`);
    out.push({ t: "op", v: op });
    i += op.length;
  }
  return out;
}
