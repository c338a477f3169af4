import { assertWork, compileLinear, fromJavaScriptSyntax, type LinearRegex } from "../../../engine/regex/linear";

/** A rule's pattern on RE2 (linear time); rules were checked when saved, so a pattern that fails here matches nothing. */
function linear(pattern: string): LinearRegex | undefined {
  try {
    const r = compileLinear(fromJavaScriptSyntax(pattern));
    return typeof r === "string" ? undefined : r;
  } catch {
    return undefined;
  }
}

/**
 * The rule's pattern when matching it against `input` stays within the regular-expression work budget; otherwise
 * undefined, and the condition counts as not met (a huge body cannot stall the poller).
 */
function withinBudget(pattern: string, input: string): LinearRegex | undefined {
  const r = linear(pattern);
  if (!r) return undefined;
  try {
    assertWork(r, input.length);
  } catch {
    return undefined;
  }
  return r;
}

/** What a rule matches on and what it takes from a message (stored as JSON on the rule). */
export interface RuleMatch {
  from?: string | null;
  to?: string | null;
  subjectContains?: string | null;
  /** Case-insensitive text of the plain body (the text part, or the HTML part's text). */
  bodyContains?: string | null;
  subjectRegex?: string | null;
  hasAttachment?: boolean | null;
}

export interface RuleMapping {
  subject?: string | null;
  from?: string | null;
  date?: string | null;
  text?: string | null;
  /** Named groups of each pattern become variables of the same name. */
  extract?: { source: "SUBJECT" | "BODY"; pattern: string }[];
}

/**
 * A rule that correlates instead of starting: the mail is the message `messageName` for the running instance whose
 * business key is taken from the mail (the subject or a header by a pattern, or the thread: the business key of the
 * earlier delivery the mail's In-Reply-To names). No waiting instance: `fallback` START (the rule's definition) or
 * NO_MATCH (logged).
 */
export interface RuleCorrelation {
  messageName: string;
  key: { source: "SUBJECT" | "HEADER" | "IN_REPLY_TO"; header?: string | null; pattern?: string | null };
  fallback: "START" | "NO_MATCH";
}

/** The parts of a parsed message the rules look at. */
export interface MessageFacts {
  /** Header values by lower-case name (the first of each). */
  headers?: Record<string, string>;
  /** The Message-ID this mail answers, if any. */
  inReplyTo?: string | null;
  from: string | null;
  to: string[];
  subject: string;
  text: string;
  date: string | null;
  attachmentCount: number;
}

/** An address matches `user@domain` exactly, or a bare `domain` (optionally `@domain`) by its domain. */
function addressMatches(pattern: string, address: string | null): boolean {
  if (!address) return false;
  const p = pattern.trim().toLowerCase();
  const a = address.toLowerCase();
  if (p.includes("@") && !p.startsWith("@")) return a === p;
  return a.endsWith(`@${p.replace(/^@/, "")}`);
}

/** Whether every condition set on the rule holds (an unset condition holds). */
export function ruleMatches(m: RuleMatch, f: MessageFacts): boolean {
  if (m.from && !addressMatches(m.from, f.from)) return false;
  if (m.to && !f.to.some((t) => addressMatches(m.to as string, t))) return false;
  if (m.subjectContains && !f.subject.toLowerCase().includes(m.subjectContains.toLowerCase())) return false;
  if (m.bodyContains && !f.text.toLowerCase().includes(m.bodyContains.toLowerCase())) return false;
  if (m.subjectRegex && !withinBudget(m.subjectRegex, f.subject)?.re.test(f.subject)) return false;
  if (m.hasAttachment != null && m.hasAttachment !== f.attachmentCount > 0) return false;
  return true;
}

/** The start variables a rule maps from a message. */
export function mapVariables(map: RuleMapping, f: MessageFacts): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  if (map.subject) vars[map.subject] = f.subject;
  if (map.from) vars[map.from] = f.from;
  if (map.date) vars[map.date] = f.date;
  if (map.text) vars[map.text] = f.text;
  for (const x of map.extract ?? []) {
    const input = x.source === "SUBJECT" ? f.subject : f.text;
    const groups = (withinBudget(x.pattern, input)?.re.exec(input) as RegExpExecArray | null | undefined)?.groups;
    for (const [name, value] of Object.entries(groups ?? {})) if (value !== undefined) vars[name] = value;
  }
  return vars;
}

/**
 * The business key a correlating rule reads from the subject or a header: the pattern's group `key`, else its first
 * group, else the whole match; without a pattern the whole value. Null when absent or not matched.
 */
export function correlationKeyOf(c: RuleCorrelation, f: MessageFacts): string | null {
  const source = c.key.source === "SUBJECT" ? f.subject : f.headers?.[(c.key.header ?? "").toLowerCase()];
  if (source === undefined || source === "") return null;
  if (!c.key.pattern) return source.trim() || null;
  // On the linear-time engine, as every rule pattern (a pattern over its work budget reads no key).
  const m = withinBudget(c.key.pattern, source)?.re.exec(source) as RegExpExecArray | null | undefined;
  if (!m) return null;
  return (m.groups?.key ?? m[1] ?? m[0]).trim() || null;
}
