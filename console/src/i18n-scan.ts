/**
 * Finds the text of the console's templates that a reader would see untranslated: the static text nodes and
 * labelling attributes (`title`, `placeholder`, `aria-label`, `alt`, `label`) of every html`…` template, and the
 * English passed to `t(…)` / `plural(…)` that the catalogs must hold. Used by the catalog test; not shipped.
 */

/** Words that read the same in every language the console speaks (names of standards and products). */
const SAME_EVERYWHERE = new Set(
  "BPMN DMN CMMN FEEL JSON XML ID URL API MCP SSO OIDC IMAP SMTP OAuth OAuth2 HTTP HTTPS JavaScript JUEL AI CMS PDF CSV Webhook Webhooks OK Microsoft Google Bearer Basic UTC UUID SHA HMAC TLS".split(
    " ",
  ),
);

/** The static parts of each html`…` template, with `\0` where an expression stands. */
export function templateStatics(source: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const at = source.indexOf("html`", from);
    if (at < 0) return out;
    const [text, end] = readTemplate(source, at + 5);
    out.push(text);
    from = end;
  }
}

/** Reads a template literal from just after its opening backtick; returns its static text and the index past it. */
function readTemplate(s: string, start: number): [string, number] {
  let text = "";
  let i = start;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\") {
      text += s.slice(i, i + 2);
      i += 2;
    } else if (c === "`") {
      return [text, i + 1];
    } else if (c === "$" && s[i + 1] === "{") {
      i = skipExpression(s, i + 2);
      text += "\0";
    } else {
      text += c;
      i++;
    }
  }
  return [text, i];
}

/** Skips a `${…}` expression (nested braces, strings and templates inside), returning the index past its `}`. */
function skipExpression(s: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < s.length && depth > 0) {
    const c = s[i];
    if (c === "`") i = readTemplate(s, i + 1)[1];
    else if (c === '"' || c === "'") i = skipString(s, i);
    else {
      if (c === "{") depth++;
      else if (c === "}") depth--;
      i++;
    }
  }
  return i;
}

function skipString(s: string, start: number): number {
  const q = s[start];
  let i = start + 1;
  while (i < s.length && s[i] !== q) i += s[i] === "\\" ? 2 : 1;
  return i + 1;
}

function readsAsWords(text: string): boolean {
  const words = text.replaceAll("\0", " ").match(/[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ0-9]*/g) ?? [];
  return words.some((w) => !SAME_EVERYWHERE.has(w));
}

/** Text a reader sees that is written into a template instead of passed through `t`. */
export function untranslatedText(source: string): string[] {
  const found: string[] = [];
  for (const statics of templateStatics(source)) {
    const tagless = statics.replace(/<(\/?)[\w.\-\0]+(?:\s[^<>]*)?>/g, (tag) => {
      for (const m of tag.matchAll(/\b(title|placeholder|aria-label|alt|label)="([^"]*)"/g))
        if (readsAsWords(m[2])) found.push(`${m[1]}="${m[2]}"`);
      return "<>";
    });
    for (const node of tagless.split("<>")) {
      const text = node.replaceAll("\0", "…").trim();
      if (text && readsAsWords(node)) found.push(text.replace(/\s+/g, " "));
    }
  }
  return found;
}

/** The English keys of `t("…")` and `plural(n, "…", "…")` calls written with literal strings. */
export function translationKeys(source: string): string[] {
  const keys: string[] = [];
  for (const m of source.matchAll(/\bt\(\s*(["'`])((?:\\.|(?!\1)[^\\])*)\1/g))
    if (m[1] !== "`" || !m[2].includes("${")) keys.push(unescape(m[2]));
  for (const m of source.matchAll(/\bplural\([^,]+,\s*"((?:\\.|[^"\\])*)",\s*"((?:\\.|[^"\\])*)"/g))
    keys.push(unescape(m[1]), unescape(m[2]));
  return keys;
}

const unescape = (s: string) => s.replace(/\\(["'`\\])/g, "$1");
