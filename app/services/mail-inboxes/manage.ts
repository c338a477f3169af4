import { asc, eq } from "drizzle-orm";
import { mailInboxes } from "../../../db/tenant/schema";
import { imapErrorText, testImapLogin } from "../../outbound/imap";
import type { TenantCtx } from "../context";
import { BadRequestError, NotFoundError } from "../errors";
import { accountOf } from "./account";

export type MailInboxesCtx = TenantCtx<"db">;
type Row = typeof mailInboxes.$inferSelect;

export interface InboxInput {
  name: string;
  host: string;
  port: number;
  tlsMode: "TLS" | "STARTTLS" | "NONE";
  username: string;
  passwordVariable: string;
  folder: string;
  pollIntervalSeconds: number;
  afterRead: "FLAG" | "MOVE";
  moveToFolder: string | null;
  enabled: boolean;
}

/** What an Admin sees: the password's variable name, never its value. */
export function inboxView(r: Row) {
  const { createdAt, updatedAt, ...rest } = r;
  return { ...rest, createdAt, updatedAt };
}

export function findInbox(ctx: MailInboxesCtx, id: string): Row {
  const row = ctx.db.orm.select().from(mailInboxes).where(eq(mailInboxes.id, id)).get();
  if (!row) throw new NotFoundError(`Mail inbox ${id} not found`);
  return row;
}

/** Logs in with the inbox's account; a refusal answers 400 carrying the server's own words. */
async function testCredentials(ctx: MailInboxesCtx, input: InboxInput) {
  if (input.afterRead === "MOVE" && !input.moveToFolder) {
    throw new BadRequestError("moveToFolder is required when afterRead is MOVE", [
      { field: "moveToFolder", message: "is required when afterRead is MOVE" },
    ]);
  }
  const account = accountOf(ctx.db, input);
  try {
    await testImapLogin(account, input.folder);
  } catch (e) {
    throw new BadRequestError(`The mail server refused the inbox: ${imapErrorText(e)}`);
  }
}

export function listInboxes({ ctx }: { ctx: MailInboxesCtx; input?: undefined }) {
  return ctx.db.orm.select().from(mailInboxes).orderBy(asc(mailInboxes.name)).all().map(inboxView);
}

export function getInbox({ ctx, input }: { ctx: MailInboxesCtx; input: { id: string } }) {
  return inboxView(findInbox(ctx, input.id));
}

/** GET /a/mail-rules/inboxes: what a Modeler may know of the inboxes to pick one for a rule. */
export function inboxSummaries({ ctx }: { ctx: MailInboxesCtx; input?: undefined }) {
  return ctx.db.orm
    .select({ id: mailInboxes.id, name: mailInboxes.name, status: mailInboxes.status })
    .from(mailInboxes)
    .orderBy(asc(mailInboxes.name))
    .all();
}

export async function createInbox({ ctx, input }: { ctx: MailInboxesCtx; input: InboxInput }) {
  await testCredentials(ctx, input);
  const at = new Date(ctx.clock.now()).toISOString();
  const row: Row = {
    id: crypto.randomUUID(),
    ...input,
    status: "ACTIVE",
    lastError: null,
    lastPollAt: null,
    createdAt: at,
    updatedAt: at,
  };
  ctx.db.orm.insert(mailInboxes).values(row).run();
  return inboxView(row);
}

/** PATCH: absent fields keep their value; the merged account is tested again before anything is saved. */
export async function updateInbox({
  ctx,
  input,
}: {
  ctx: MailInboxesCtx;
  input: { id: string } & Partial<InboxInput>;
}) {
  const { id, ...patch } = input;
  const old = findInbox(ctx, id);
  const merged = { ...old, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as Row;
  await testCredentials(ctx, merged as InboxInput);
  const at = new Date(ctx.clock.now()).toISOString();
  const next: Row = { ...merged, status: "ACTIVE", lastError: null, updatedAt: at };
  ctx.db.orm.update(mailInboxes).set(next).where(eq(mailInboxes.id, id)).run();
  return inboxView(next);
}

export function deleteInbox({ ctx, input }: { ctx: MailInboxesCtx; input: { id: string } }): void {
  findInbox(ctx, input.id);
  ctx.db.orm.delete(mailInboxes).where(eq(mailInboxes.id, input.id)).run();
}
