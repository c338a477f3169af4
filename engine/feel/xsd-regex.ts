// FEEL's matches, replace and split take XML Schema / XPath regular expressions (DMN 1.5 §10.3.4.3, XPath F&O 3.1
// §5.6). Their syntax differs from JavaScript's in a few places; this translates one into the other, or returns
// undefined when the pattern or flags are invalid (FEEL then answers null).

// A few Unicode blocks by their XSD name (\p{IsX}); JavaScript knows scripts and categories, not blocks.
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
const NAME_START =
  ":A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD";
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;

/** The JavaScript RegExp for an XPath pattern and flags (s, m, i, x, q), or undefined when either is invalid. */
export function xsdRegExp(pattern: string, flags = "", extra = ""): RegExp | undefined {
  if (!/^[smixq]*$/.test(flags)) return undefined;
  const src = flags.includes("q")
    ? pattern.replace(/[\\^$.*+?()[\]{}|/-]/g, (c) => (c === "-" ? "\\x2D" : `\\${c}`))
    : translate(pattern, flags.includes("x"));
  if (src === undefined) return undefined;
  const jsFlags = `u${[..."smi"].filter((f) => flags.includes(f)).join("")}${extra}`;
  try {
    return new RegExp(src, jsFlags);
  } catch {
    return undefined;
  }
}

function translate(pattern: string, extended: boolean): string | undefined {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (extended && /\s/.test(c)) continue;
    if (c === "\\" || c === "[") {
      const e = c === "[" ? readClass(pattern, i) : escape(pattern, i, false);
      if (!e) return undefined;
      out += e.text;
      i = e.next - 1;
      continue;
    }
    // XPath's "." without the s flag stops at \n and \r only (JavaScript's also at \u2028 and \u2029).
    out += c === "." ? "(?:.|[\u2028\u2029])" : c;
  }
  return out;
}

/** A character class at `start` ("["), with XSD's subtraction [base-[excluded]] as a lookahead. */
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
      return { text: `(?:(?!${excluded.text})${text}])`, next: excluded.next + 1 };
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
      if (c === "p") return { text: inClass ? range : `[${range}]`, next };
      return inClass ? undefined : { text: `[^${range}]`, next };
    }
    return { text: `\\${c}{${m[1]}}`, next };
  }
  const names: Record<string, string> = { i: NAME_START, c: NAME_CHAR };
  if (c in names) return { text: inClass ? names[c] : `[${names[c]}]`, next: i + 2 };
  if ((c === "I" || c === "C") && !inClass) return { text: `[^${names[c.toLowerCase()]}]`, next: i + 2 };
  if (c === "-") return { text: "\\x2D", next: i + 2 };
  if (/[nrt\\|.?*+(){}[\]^$sSdDwW]/.test(c)) return { text: `\\${c}`, next: i + 2 };
  // Back-references \1..\9 (and more digits while such a group can exist: left to the RegExp).
  if (/[1-9]/.test(c) && !inClass) return { text: `\\${c}`, next: i + 2 };
  return undefined;
}

/** An XPath replacement string ($N groups, \$ and \\ escapes) as a JavaScript one, or undefined when invalid. */
export function xsdReplacement(replacement: string): string | undefined {
  let out = "";
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i];
    if (c === "\\") {
      const n = replacement[i + 1];
      if (n !== "\\" && n !== "$") return undefined;
      out += n === "$" ? "$$" : "\\";
      i++;
    } else if (c === "$") {
      const m = /^\d+/.exec(replacement.slice(i + 1));
      if (!m) return undefined;
      out += m[0] === "0" ? "$&" : `$${m[0]}`;
      i += m[0].length;
    } else out += c;
  }
  return out;
}
