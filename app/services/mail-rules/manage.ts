import { compileLinear, fromJavaScriptSyntax } from "../../../engine/regex/linear";
import { asc, eq } from "drizzle-orm";
import { mailInboxes, mailRules } from "../../../db/tenant/schema";
import type { TenantCtx } from "../context";
import { BadRequestError, NotFoundError } from "../errors";
import { findDocumentType } from "../document-types/document-types";
import type { RuleCorrelation, RuleMapping, RuleMatch } from "./match";

export type MailRulesCtx = TenantCtx<"db" | "processRuntime" | "platformDb">;
type Row = typeof mailRules.$inferSelect;

export interface RuleInput {
  name: string;
  definitionKey: string;
  inboxId: string | null;
  priority: number;
  enabled: boolean;
  match: RuleMatch;
  mapping: RuleMapping;
  /** null: the rule starts its definition. */
  correlate: RuleCorrelation | null;
  attachmentDocumentTypeId: string | null;
}

/** The correlation is kept in the mapping's JSON (what the rule does with the mail), not in a column of its own. */
export function ruleView(r: Row) {
  const { correlate, ...mapping } = JSON.parse(r.mapping) as RuleMapping & { correlate?: RuleCorrelation | null };
  return {
    ...r,
    match: JSON.parse(r.match) as RuleMatch,
    mapping: mapping as RuleMapping,
    correlate: correlate ?? null,
  };
}
export type RuleView = ReturnType<typeof ruleView>;

function findRule(ctx: MailRulesCtx, id: string): Row {
  const row = ctx.db.orm.select().from(mailRules).where(eq(mailRules.id, id)).get();
  if (!row) throw new NotFoundError(`Mail rule ${id} not found`);
  return row;
}

function badField(field: string, message: string): never {
  throw new BadRequestError(`${field} ${message}`, [{ field, message }]);
}

function compiles(field: string, pattern: string, needsGroups: boolean) {
  let r: ReturnType<typeof compileLinear>;
  try {
    r = compileLinear(fromJavaScriptSyntax(pattern));
  } catch (e) {
    badField(field, `is refused: ${e instanceof Error ? e.message : e}`);
  }
  if (typeof r === "string") badField(field, `is not a valid regular expression: ${r}`);
  if (needsGroups && Object.keys(r.re.namedGroups()).length === 0)
    badField(field, "needs at least one named group (?<name>...)");
}

/** A rule refers to a definition and an inbox of this tenant, and its patterns compile (400 otherwise). */
function validate(ctx: MailRulesCtx, input: RuleInput) {
  if (!ctx.processRuntime.kindOfDefinitionKey(ctx.tenant.id, input.definitionKey))
    badField("definitionKey", `names no definition of this tenant: '${input.definitionKey}'`);
  if (input.inboxId && !ctx.db.orm.select().from(mailInboxes).where(eq(mailInboxes.id, input.inboxId)).get())
    badField("inboxId", "names no inbox of this tenant");
  if (input.match.subjectRegex) compiles("match.subjectRegex", input.match.subjectRegex, false);
  (input.mapping.extract ?? []).forEach((x, i) => compiles(`mapping.extract[${i}].pattern`, x.pattern, true));
  const key = input.correlate?.key;
  if (key?.pattern) compiles("correlate.key.pattern", key.pattern, false);
  if (key?.source === "HEADER" && !key.header)
    badField("correlate.key.header", "names the header the key is read from");
  const docType = input.attachmentDocumentTypeId;
  if (docType && findDocumentType(ctx, docType)?.status !== "ACTIVE")
    badField("attachmentDocumentTypeId", "names no active document type");
}

/** Rules in the order they are tried: priority (lower first), then age. */
export function listRules({ ctx, input }: { ctx: MailRulesCtx; input?: { definitionKey?: string } }) {
  const rows = ctx.db.orm.select().from(mailRules).orderBy(asc(mailRules.priority), asc(mailRules.createdAt)).all();
  return rows.filter((r) => !input?.definitionKey || r.definitionKey === input.definitionKey).map(ruleView);
}

export function getRule({ ctx, input }: { ctx: MailRulesCtx; input: { id: string } }) {
  return ruleView(findRule(ctx, input.id));
}

function toRow(input: RuleInput, id: string, createdAt: string, updatedAt: string): Row {
  const { match, mapping, correlate, ...rest } = input;
  const stored = correlate ? { ...mapping, correlate } : mapping;
  return { ...rest, id, match: JSON.stringify(match), mapping: JSON.stringify(stored), createdAt, updatedAt };
}

export function createRule({ ctx, input }: { ctx: MailRulesCtx; input: RuleInput }) {
  validate(ctx, input);
  const at = new Date(ctx.clock.now()).toISOString();
  const row = toRow(input, crypto.randomUUID(), at, at);
  ctx.db.orm.insert(mailRules).values(row).run();
  return ruleView(row);
}

export function updateRule({ ctx, input }: { ctx: MailRulesCtx; input: { id: string } & Partial<RuleInput> }) {
  const { id, ...patch } = input;
  const old = ruleView(findRule(ctx, id));
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const merged = { ...old, ...defined } as RuleInput & { createdAt: string };
  validate(ctx, merged);
  const row = toRow(merged, id, old.createdAt, new Date(ctx.clock.now()).toISOString());
  ctx.db.orm.update(mailRules).set(row).where(eq(mailRules.id, id)).run();
  return ruleView(row);
}

export function deleteRule({ ctx, input }: { ctx: MailRulesCtx; input: { id: string } }): void {
  findRule(ctx, input.id);
  ctx.db.orm.delete(mailRules).where(eq(mailRules.id, input.id)).run();
}
