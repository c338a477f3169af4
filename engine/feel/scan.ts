// A tiny tokenizer for the FEEL subset that covers almost every cell of a real decision table
// (literals, comparisons, intervals, lists, dotted names). Anything it does not recognise makes the
// caller fall back to feelin, so it only has to be exact, never complete.

export type Token =
  | { t: "num"; v: number }
  | { t: "str"; v: string }
  | { t: "name"; v: string }
  | { t: "op"; v: string };

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /(?:\d+(?:\.\d+)?|\.\d+)/y;
const OPS = ["..", "<=", ">=", "!=", "<", ">", "=", ",", "(", ")", "[", "]", "-", "."];

/** Tokens of `text`, or undefined if it contains anything outside the subset. */
export function scan(text: string): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (c === '"') {
      const end = readString(text, i);
      if (!end) return undefined;
      out.push({ t: "str", v: end.value });
      i = end.next;
      continue;
    }
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(text);
    if (num) {
      out.push({ t: "num", v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    NAME.lastIndex = i;
    const name = NAME.exec(text);
    if (name) {
      out.push({ t: "name", v: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (!op) return undefined;
    out.push({ t: "op", v: op });
    i += op.length;
  }
  return out;
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", n: "\n", r: "\r", t: "\t", "'": "'" };

function readString(text: string, start: number): { value: string; next: number } | undefined {
  let value = "";
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') return { value, next: i + 1 };
    if (c === "\\") {
      const e = ESCAPES[text[i + 1]];
      if (e === undefined) return undefined; // \u and friends: leave them to feelin
      value += e;
      i++;
      continue;
    }
    value += c;
  }
  return undefined;
}

export type Literal = { value: number | string | boolean | null };

/** Read one literal (number with optional minus, string, true, false, null) at `pos`; returns it and the next position. */
export function readLiteral(tokens: Token[], pos: number): { lit: Literal; next: number } | undefined {
  const tok = tokens[pos];
  if (!tok) return undefined;
  if (tok.t === "op" && tok.v === "-") {
    const n = tokens[pos + 1];
    return n && n.t === "num" ? { lit: { value: -n.v }, next: pos + 2 } : undefined;
  }
  if (tok.t === "num" || tok.t === "str") return { lit: { value: tok.v }, next: pos + 1 };
  if (tok.t === "name") {
    if (tok.v === "true") return { lit: { value: true }, next: pos + 1 };
    if (tok.v === "false") return { lit: { value: false }, next: pos + 1 };
    if (tok.v === "null") return { lit: { value: null }, next: pos + 1 };
  }
  return undefined;
}

/** A whole text that is exactly one literal, or undefined. */
export function literalOf(text: string): Literal | undefined {
  const tokens = scan(text);
  if (!tokens) return undefined;
  const r = readLiteral(tokens, 0);
  return r && r.next === tokens.length ? r.lit : undefined;
}
