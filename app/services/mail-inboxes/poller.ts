import { and, eq } from "drizzle-orm";
import { mailDeliveries, mailInboxes } from "../../../db/tenant/schema";
import type { TenantRecord } from "../../../tenants/tenant-directory";
import { imapErrorText, openImapSession, watchImap, type ImapSession, type ImapWatch } from "../../outbound/imap";
import type { Clock } from "../clock";
import type { TenantCtx } from "../context";
import { deliverMessage } from "../mail-rules/deliver";
import { settleOrphans } from "../mail-rules/resume";
import { inboxAccount, storedAccount } from "./account";

type Inbox = typeof mailInboxes.$inferSelect;

export interface MailPollerDeps {
  /** Tenants whose inboxes are read (the ACTIVE ones). */
  tenants(): TenantRecord[];
  /** Runs with the ctx mail acts with inside a tenant (the system actor on channel MAIL), its handle leased. */
  withCtx(tenant: TenantRecord, run: (ctx: TenantCtx) => Promise<void>): Promise<void>;
  clock: Clock;
  log(message: string): void;
}

export interface MailPoller {
  /** Reads every enabled inbox that is due (all of them with `force`); one run at a time. */
  pollAll(opts?: { force?: boolean }): Promise<void>;
  start(opts: { tickMs: number }): void;
  stop(): Promise<void>;
}

async function afterRead(session: ImapSession, inbox: Inbox, uid: number) {
  if (inbox.afterRead === "MOVE" && inbox.moveToFolder) await session.moveTo(uid, inbox.moveToFolder);
  else await session.markRead(uid);
}

/**
 * Reads one inbox: each unread message is recorded and handled (deliverMessage), then flagged or moved. A message
 * whose flag failed is seen again next time and skipped by its recorded Message-ID. A delivery still PENDING was cut
 * short by a crash; its message, not yet flagged, is read again and the delivery resumed (deliverMessage). One whose
 * message is no longer unread is settled after the read (settleOrphans).
 */
export async function pollInbox(ctx: TenantCtx, inbox: Inbox): Promise<void> {
  const at = () => new Date(ctx.clock.now()).toISOString();
  const pendingBefore = ctx.db.orm
    .select({ id: mailDeliveries.id })
    .from(mailDeliveries)
    .where(and(eq(mailDeliveries.inboxId, inbox.id), eq(mailDeliveries.outcome, "PENDING")))
    .all()
    .map((r) => r.id);
  let session: ImapSession | null = null;
  try {
    session = await openImapSession(await inboxAccount(ctx, inbox), inbox.folder);
    for (const m of await session.unread()) {
      await deliverMessage(ctx, inbox.id, m.source);
      await afterRead(session, inbox, m.uid);
    }
    await settleOrphans(ctx, session, pendingBefore);
    ctx.db.orm
      .update(mailInboxes)
      .set({ status: "ACTIVE", lastError: null, lastPollAt: at() })
      .where(eq(mailInboxes.id, inbox.id))
      .run();
  } catch (e) {
    ctx.db.orm
      .update(mailInboxes)
      .set({ status: "ERROR", lastError: imapErrorText(e), lastPollAt: at() })
      .where(eq(mailInboxes.id, inbox.id))
      .run();
  } finally {
    await session?.close();
  }
}

const due = (inbox: Inbox, now: number) =>
  !inbox.lastPollAt || now - Date.parse(inbox.lastPollAt) >= inbox.pollIntervalSeconds * 1000;

/**
 * The background reader of every tenant's inboxes, started and stopped by app/platform. Each inbox is read at its
 * polling interval; where its server offers IDLE, a watching connection also has it read as soon as mail arrives.
 */
export function createMailPoller(deps: MailPollerDeps): MailPoller {
  let running: Promise<void> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let stopping = false;
  /** Watching connections by tenant and inbox (null while one opens, or when the server has no IDLE). */
  const watches = new Map<string, ImapWatch | null>();
  /** Inboxes whose server announced new mail: read at the next run whatever their interval. */
  const announced = new Set<string>();
  const keyOf = (tenant: TenantRecord, inbox: Inbox) => `${tenant.id}/${inbox.id}`;
  const watch = (tenant: TenantRecord, ctx: TenantCtx, inbox: Inbox) => {
    const key = keyOf(tenant, inbox);
    if (stopping || watches.has(key) || inbox.status !== "ACTIVE") return;
    watches.set(key, null);
    const onNew = () => {
      announced.add(key);
      if (!stopping) void poller.pollAll().catch(() => undefined);
    };
    // Synchronous while the tenant handle is leased: an OAuth2 inbox watches with the token its poll just stored.
    const account = storedAccount(ctx, inbox);
    if (!account) return void watches.delete(key);
    watchImap(account, inbox.folder, { onNew, onEnd: () => watches.delete(key) }).then(
      (w) => {
        if (w && stopping) void w.close();
        else if (w) watches.set(key, w);
      },
      () => watches.delete(key), // the next poll records the error on the inbox; watching is tried again after it
    );
  };
  const runAll = async (force: boolean) => {
    for (const tenant of deps.tenants()) {
      try {
        await deps.withCtx(tenant, async (ctx) => {
          const inboxes = ctx.db.orm.select().from(mailInboxes).where(eq(mailInboxes.enabled, true)).all();
          for (const inbox of inboxes) {
            if (announced.delete(keyOf(tenant, inbox)) || force || due(inbox, deps.clock.now()))
              await pollInbox(ctx, inbox);
            watch(tenant, ctx, inbox);
          }
        });
      } catch (e) {
        deps.log(`[mail] tenant ${tenant.id}: ${e instanceof Error ? e.message : e}`);
      }
    }
  };
  const poller: MailPoller = {
    async pollAll(opts = {}) {
      while (running) await running;
      running = runAll(opts.force ?? false).finally(() => {
        running = null;
      });
      await running;
    },
    start({ tickMs }) {
      stopping = false;
      timer ??= setInterval(() => {
        if (!running) void poller.pollAll();
      }, tickMs);
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      while (running) await running;
      const open = [...watches.values()].filter((w): w is ImapWatch => w !== null);
      watches.clear();
      await Promise.all(open.map((w) => w.close()));
    },
  };
  return poller;
}
