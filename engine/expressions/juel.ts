import { ExpressionError } from "../errors";
import { depthRefusal, EXPRESSION_LIMITS, lengthRefusal } from "../feel";
import { assertJuelString, ExpressionLimitError } from "./juel-limits";

/** A compiled JUEL-subset expression: a pure function of a variable lookup. */
export type Compiled = (lookup: (name: string) => unknown) => unknown;

import { tokenize, type Tok } from "./juel-lexer";
import { cmp, eq, isEmpty, num, prop, truthy } from "./juel-values";

/** Recursive-descent parser building closures: no eval, no Function, no method calls. */
class Parser {
  i = 0;
  /** Nesting of the recursive descent (brackets, ternaries, unary operators): bounded, never a stack overflow. */
  private depth = 0;
  constructor(
    private toks: Tok[],
    private src: string,
  ) {}
  peek(v?: string): boolean {
    const t = this.toks[this.i];
    return !!t && t.t === "op" && (v === undefined || t.v === v);
  }
  eat(v: string): boolean {
    if (this.peek(v)) {
      this.i++;
      return true;
    }
    return false;
  }
  expect(v: string): void {
    if (!this.eat(v)) throw new ExpressionError(`expected '${v}' in expression: ${this.src}`);
  }
  parse(): Compiled {
    const e = this.ternary();
    if (this.i < this.toks.length)
      throw new ExpressionError(`unexpected '${this.toks[this.i].v}' in expression: ${this.src}`);
    return e;
  }
  private nested<T>(f: () => T): T {
    if (++this.depth > EXPRESSION_LIMITS.depth) throw new ExpressionLimitError(depthRefusal());
    try {
      return f();
    } finally {
      this.depth--;
    }
  }
  ternary(): Compiled {
    return this.nested(() => this.ternaryAt());
  }
  private ternaryAt(): Compiled {
    const c = this.or();
    if (!this.eat("?")) return c;
    const a = this.ternary();
    this.expect(":");
    const b = this.ternary();
    return (l) => (truthy(c(l)) ? a(l) : b(l));
  }
  or(): Compiled {
    let l = this.and();
    while (this.eat("||")) {
      const a = l,
        b = this.and();
      l = (x) => truthy(a(x)) || truthy(b(x));
    }
    return l;
  }
  and(): Compiled {
    let l = this.equality();
    while (this.eat("&&")) {
      const a = l,
        b = this.equality();
      l = (x) => truthy(a(x)) && truthy(b(x));
    }
    return l;
  }
  equality(): Compiled {
    let l = this.relational();
    for (;;) {
      if (this.eat("==")) {
        const a = l,
          b = this.relational();
        l = (x) => eq(a(x), b(x));
      } else if (this.eat("!=")) {
        const a = l,
          b = this.relational();
        l = (x) => !eq(a(x), b(x));
      } else return l;
    }
  }
  relational(): Compiled {
    let l = this.additive();
    for (;;) {
      const op = ["<=", ">=", "<", ">"].find((o) => this.peek(o));
      if (!op) return l;
      this.i++;
      const a = l,
        b = this.additive();
      l =
        op === "<"
          ? (x) => cmp(a(x), b(x)) < 0
          : op === ">"
            ? (x) => cmp(a(x), b(x)) > 0
            : op === "<="
              ? (x) => cmp(a(x), b(x)) <= 0
              : (x) => cmp(a(x), b(x)) >= 0;
    }
  }
  additive(): Compiled {
    let l = this.multiplicative();
    for (;;) {
      if (this.eat("+")) {
        const a = l,
          b = this.multiplicative();
        l = (x) => {
          const p = a(x),
            q = b(x);
          if (typeof p === "string" && typeof q === "string" && Number.isNaN(Number(p)))
            return assertJuelString(p.length + q.length) && p + q;
          return num(p) + num(q);
        };
      } else if (this.eat("-")) {
        const a = l,
          b = this.multiplicative();
        l = (x) => num(a(x)) - num(b(x));
      } else return l;
    }
  }
  multiplicative(): Compiled {
    let l = this.unary();
    for (;;) {
      if (this.eat("*")) {
        const a = l,
          b = this.unary();
        l = (x) => num(a(x)) * num(b(x));
      } else if (this.eat("/")) {
        const a = l,
          b = this.unary();
        l = (x) => num(a(x)) / num(b(x));
      } else if (this.eat("%")) {
        const a = l,
          b = this.unary();
        l = (x) => num(a(x)) % num(b(x));
      } else return l;
    }
  }
  unary(): Compiled {
    if (this.eat("!")) {
      const a = this.nested(() => this.unary());
      return (x) => !truthy(a(x));
    }
    if (this.eat("-")) {
      const a = this.nested(() => this.unary());
      return (x) => -num(a(x));
    }
    const t = this.toks[this.i];
    if (t && t.t === "id" && t.v === "empty") {
      this.i++;
      const a = this.nested(() => this.unary());
      return (x) => isEmpty(a(x));
    }
    return this.postfix();
  }
  postfix(): Compiled {
    let e = this.primary();
    for (;;) {
      if (this.eat(".")) {
        const t = this.toks[this.i++];
        if (t?.t !== "id") throw new ExpressionError(`expected a property name in expression: ${this.src}`);
        if (this.peek("(")) throw new ExpressionError(`method calls are not supported in expressions: ${this.src}`);
        const o = e;
        e = (x) => prop(o(x), t.v);
      } else if (this.eat("[")) {
        const o = e,
          k = this.ternary();
        this.expect("]");
        e = (x) => prop(o(x), k(x));
      } else return e;
    }
  }
  primary(): Compiled {
    const t = this.toks[this.i++];
    if (!t) throw new ExpressionError(`unexpected end of expression: ${this.src}`);
    if (t.t === "num") {
      const n = Number(t.v);
      return () => n;
    }
    if (t.t === "str") {
      const s = t.v;
      return () => s;
    }
    if (t.t === "op" && t.v === "(") {
      const e = this.ternary();
      this.expect(")");
      return e;
    }
    if (t.t === "id") {
      if (t.v === "true") return () => true;
      if (t.v === "false") return () => false;
      if (t.v === "null") return () => null;
      if (this.peek("("))
        throw new ExpressionError(`function and method calls are not supported in expressions: ${this.src}`);
      const name = t.v;
      return (l) => l(name) ?? null;
    }
    throw new ExpressionError(`unexpected '${t.v}' in expression: ${this.src}`);
  }
}

/** Compiles the body of one `${...}` (without the delimiters). */
export function compileJuelBody(body: string): Compiled {
  return new Parser(tokenize(body), body).parse();
}

/** Splits a template into literal text and `${...}`/`#{...}` bodies, honouring quotes inside the braces. */
export function splitTemplate(src: string): Array<{ text: string } | { expr: string }> {
  const parts: Array<{ text: string } | { expr: string }> = [];
  let i = 0,
    lit = "";
  while (i < src.length) {
    if ((src[i] === "$" || src[i] === "#") && src[i + 1] === "{") {
      let j = i + 2,
        depth = 1,
        q: string | null = null;
      for (; j < src.length; j++) {
        const c = src[j];
        if (q) {
          if (c === q) q = null;
          continue;
        }
        if (c === "'" || c === '"') q = c;
        else if (c === "{") depth++;
        else if (c === "}" && --depth === 0) break;
      }
      if (j >= src.length) throw new ExpressionError(`unterminated '\${' in expression: ${src}`);
      if (lit) parts.push({ text: lit });
      lit = "";
      parts.push({ expr: src.slice(i + 2, j) });
      i = j + 1;
    } else lit += src[i++];
  }
  if (lit) parts.push({ text: lit });
  return parts;
}

/** Compiles a JUEL template: a lone `${x}` yields the value itself, mixed text yields a string. */
export function compileJuel(src: string): Compiled {
  const long = lengthRefusal(src.length);
  if (long) throw new ExpressionLimitError(long);
  const parts = splitTemplate(src.trim()).map((p) => ("expr" in p ? compileJuelBody(p.expr) : p.text));
  if (parts.length === 1 && typeof parts[0] === "function") return parts[0];
  return (l) => {
    const texts = parts.map((p) => (typeof p === "string" ? p : String(p(l) ?? "")));
    assertJuelString(texts.reduce((n, t) => n + t.length, 0));
    return texts.join("");
  };
}
