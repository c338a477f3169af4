import { RE2JS } from "re2js";
import { compileLinear, type LinearRegex, RegexRefusedError } from "../regex/linear";

// FEEL's matches, replace and split take XML Schema / XPath regular expressions (DMN 1.5 §10.3.4.3, XPath F&O 3.1
// §5.6). They run on RE2 (linear time, engine/regex); this translates XPath syntax into RE2's, or returns undefined
// when the pattern or flags are invalid (FEEL then answers null). What only a backtracking engine can do
// (a back-reference to a group that is not a plain literal, lookaround) throws RegexRefusedError.

const hex = (s: string) => s.replace(/\\u([0-9A-F]{4})/g, "\\x{$1}");
// A few Unicode blocks by their XSD name (\p{IsX}); RE2 knows scripts and categories, not blocks.
const BLOCKS: Record<string, string> = {
  BasicLatin: "\\u0000-\\u007F",
  "Latin-1Supplement": "\\u0080-\\u00FF",
  LatinExtended: "\\u0100-\\u024F",
  "LatinExtended-A": "\\u0100-\\u017F",
  "LatinExtended-B": "\\u0180-\\u024F",
  Greek: "\\u0370-\\u03FF",
  GreekandCoptic: "\\u0370-\\u03FF",
  Cyrillic: "\\u0400-\\u04FF",
  Hebrew: "\\u0590-\\u05FF",
  Arabic: "\\u0600-\\u06FF",
  CJKUnifiedIdeographs: "\\u4E00-\\u9FFF",
};
// \i (initial name character) and \c (name character) of XML, as class contents.
const NAME_START = hex(
  ":A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD",
);
const NAME_CHAR = `${NAME_START}\\-.0-9${hex("\\u00B7\\u0300-\\u036F\\u203F-\\u2040")}`;

/** The compiled RE2 program for an XPath pattern and flags (s, m, i, x, q), or undefined when either is invalid. */
export function xsdRegex(pattern: string, flags = ""): LinearRegex | undefined {
  if (!/^[smixq]*$/.test(flags)) return undefined;
  const src = flags.includes("q")
    ? RE2JS.quote(pattern)
    : translate(flags.includes("x") ? stripWhitespace(pattern) : pattern, false, flags.includes("s"));
  if (src === undefined) return undefined;
  let f = RE2JS.LOOKBEHINDS; // only ever written by readClass, for XSD's class subtraction
  if (flags.includes("s")) f |= RE2JS.DOTALL;
  if (flags.includes("m")) f |= RE2JS.MULTILINE;
  if (flags.includes("i")) f |= RE2JS.CASE_INSENSITIVE;
  const r = compileLinear(src, f);
  return typeof r === "string" ? undefined : r;
}

/** The x flag: whitespace is removed from the pattern, except inside a character class (XPath F&O 3.1 §5.6.2). */
function stripWhitespace(p: string): string {
  let out = "";
  let inClass = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      // An escape takes the next character (outside a class, the next one that is not whitespace).
      let j = i + 1;
      while (!inClass && j < p.length && /\s/.test(p[j])) j++;
      out += c + (p[j] ?? "");
      i = j;
      continue;
    }
    if (c === "[") inClass++;
    else if (c === "]" && inClass) inClass--;
    if (!inClass && /\s/.test(c)) continue;
    out += c;
  }
  return out;
}

const META = /[\\[\](){}.*+?^$|]/;

function translate(pattern: string, extended: boolean, dotAll: boolean): string | undefined {
  let out = "";
  // Capturing groups by number: where each starts in the pattern, and its text once closed.
  const groups: { start: number; text?: string }[] = [];
  const open: (number | null)[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (extended && /\s/.test(c)) continue;
    if (c === "(") {
      if (pattern[i + 1] === "?") {
        if (/^\(\?(?:=|!|<=|<!)/.test(pattern.slice(i, i + 4)))
          throw new RegexRefusedError(
            "lookaround is not supported: regular expressions run on a linear-time engine (RE2 syntax)",
          );
        open.push(null);
      } else {
        groups.push({ start: i + 1 });
        open.push(groups.length - 1);
      }
    } else if (c === ")") {
      const g = open.pop();
      if (g !== undefined && g !== null) groups[g].text = pattern.slice(groups[g].start, i);
    }
    if (c === "\\" && /[1-9]/.test(pattern[i + 1] ?? "")) {
      const ref = backReference(pattern, i, groups, extended);
      if (ref === undefined) return undefined;
      out += ref.text;
      i = ref.next - 1;
      continue;
    }
    if (c === "\\" || c === "[") {
      const e = c === "[" ? readClass(pattern, i) : escape(pattern, i, false);
      if (!e) return undefined;
      out += e.text;
      i = e.next - 1;
      continue;
    }
    // XPath's "." without the s flag stops at \n and \r (RE2's at \n only); with s, RE2's DOTALL takes everything.
    out += c === "." && !dotAll ? "[^\\n\\r]" : c;
  }
  return out;
}

/**
 * `\N`: the longest number naming a group closed before it (XPath §5.6.1). A group whose text is a plain literal is
 * matched by that literal (linear); any other group would need backtracking and is refused; no such group is invalid.
 */
function backReference(p: string, i: number, groups: { text?: string }[], extended: boolean) {
  let n = Number(p[i + 1]);
  let next = i + 2;
  while (/[0-9]/.test(p[next] ?? "") && Number(`${n}${p[next]}`) <= groups.length) n = Number(`${n}${p[next++]}`);
  const text = groups[n - 1]?.text;
  if (text === undefined) return undefined;
  const literal = extended ? text.replace(/\s/g, "") : text;
  if (META.test(literal))
    throw new RegexRefusedError(
      `the back-reference \\${n} refers to a group that is not a plain literal, which needs a backtracking engine: regular expressions run on a linear-time engine (RE2 syntax)`,
    );
  return { text: `(?:${RE2JS.quote(literal)})`, next };
}

/** A character class at `start` ("["), with XSD's subtraction [base-[excluded]] as a one-character lookbehind. */
function readClass(p: string, start: number): { text: string; next: number } | undefined {
  let text = "[";
  let i = start + 1;
  if (p[i] === "^") {
    text += "^";
    i++;
  }
  for (; i < p.length; i++) {
    const c = p[i];
    if (c === "]") return { text: `${text}]`, next: i + 1 };
    if (c === "-" && p[i + 1] === "[") {
      const excluded = readClass(p, i + 1);
      if (!excluded || p[excluded.next] !== "]") return undefined;
      return { text: `(?:${text}](?<!${excluded.text}))`, next: excluded.next + 1 };
    }
    if (c === "[") return undefined;
    if (c === "\\") {
      const e = escape(p, i, true);
      if (!e) return undefined;
      text += e.text;
      i = e.next - 1;
      continue;
    }
    text += c;
  }
  return undefined;
}

function escape(p: string, i: number, inClass: boolean): { text: string; next: number } | undefined {
  const c = p[i + 1];
  if (c === undefined) return undefined;
  if (c === "p" || c === "P") {
    const m = /^\{([^}]*)\}/.exec(p.slice(i + 2));
    if (!m) return undefined;
    const next = i + 2 + m[0].length;
    if (m[1].startsWith("Is")) {
      const range = BLOCKS[m[1].slice(2)];
      if (!range) return undefined;
      const r = hex(range);
      if (c === "p") return { text: inClass ? r : `[${r}]`, next };
      return inClass ? undefined : { text: `[^${r}]`, next };
    }
    return { text: `\\${c}{${m[1]}}`, next };
  }
  const names: Record<string, string> = { i: NAME_START, c: NAME_CHAR };
  if (c in names) return { text: inClass ? names[c] : `[${names[c]}]`, next: i + 2 };
  if ((c === "I" || c === "C") && !inClass) return { text: `[^${names[c.toLowerCase()]}]`, next: i + 2 };
  if (c === "-") return { text: "\\x2D", next: i + 2 };
  if (/[nrt\\|.?*+(){}[\]^$sSdDwW]/.test(c)) return { text: `\\${c}`, next: i + 2 };
  return undefined;
}

/** One part of an XPath replacement: literal text or the number of a group ($0 is the whole match). */
export type ReplacementPart = string | number;

/** An XPath replacement string ($N groups, \$ and \\ escapes) as parts, or undefined when invalid. */
export function xsdReplacement(replacement: string, groupCount: number): ReplacementPart[] | undefined {
  const out: ReplacementPart[] = [];
  let lit = "";
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i];
    if (c === "\\") {
      const n = replacement[i + 1];
      if (n !== "\\" && n !== "$") return undefined;
      lit += n;
      i++;
    } else if (c === "$") {
      const d = replacement[i + 1];
      if (d === undefined || !/[0-9]/.test(d)) return undefined;
      // The longest run of digits that names a group; the rest is text (XPath F&O §5.6.3).
      let n = Number(d);
      let j = i + 2;
      while (/[0-9]/.test(replacement[j] ?? "") && Number(`${n}${replacement[j]}`) <= groupCount)
        n = Number(`${n}${replacement[j++]}`);
      if (lit) out.push(lit);
      lit = "";
      out.push(n);
      i = j - 1;
    } else lit += c;
  }
  if (lit) out.push(lit);
  return out;
}
