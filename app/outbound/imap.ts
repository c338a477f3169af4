import type { ImapFlow } from "imapflow";
import { checkDestination } from "./address-policy";

/** How to reach an IMAP account; `allowedPrivate` is the caller's SSRF allowance (the tenant's private hosts). */
export interface ImapAccount {
  host: string;
  port: number;
  tlsMode: "TLS" | "STARTTLS" | "NONE";
  username: string;
  /** Exactly one of the two: a password (LOGIN) or an OAuth2 access token (SASL XOAUTH2). */
  password?: string;
  accessToken?: string;
  allowedPrivate: readonly string[];
}

/** A message as read from the folder: its UID and raw source. */
export interface RawMessage {
  uid: number;
  source: Buffer;
}

/** One session on one folder: list the unread messages, then flag or move each one handled. */
export interface ImapSession {
  unread(): Promise<RawMessage[]>;
  /** The message of the folder with that Message-ID, read or not (a retry fetches it again), or null. */
  byMessageId(messageId: string): Promise<RawMessage | null>;
  markRead(uid: number): Promise<void>;
  moveTo(uid: number, folder: string): Promise<void>;
  close(): Promise<void>;
}

/** The server's own words when it refuses (imapflow keeps them in `responseText`). */
export function imapErrorText(e: unknown): string {
  const err = e as { responseText?: string; message?: string; code?: string };
  return err.responseText || err.message || err.code || String(e);
}

/**
 * Connects and logs in under the SSRF policy: the host is resolved and checked once and the connection goes to the
 * checked address (TLS keeps the name for its certificate check). Throws with the server's answer on failure.
 */
export async function openImap(account: ImapAccount): Promise<ImapFlow> {
  const [address] = await checkDestination(account.host, account.allowedPrivate);
  const { ImapFlow } = await import("imapflow"); // imported on first use: start-up does not pay for it
  const client = new ImapFlow({
    host: address as string,
    port: account.port,
    secure: account.tlsMode === "TLS",
    doSTARTTLS: account.tlsMode === "STARTTLS" ? true : account.tlsMode === "NONE" ? false : undefined,
    tls: { servername: account.host },
    auth: account.accessToken
      ? { user: account.username, accessToken: account.accessToken }
      : { user: account.username, pass: account.password ?? "" },
    logger: false,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
  });
  // An idle connection's late socket error must not crash the process; the session's calls report failures.
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** Logs in and out: the credentials test run when an inbox is saved. */
export async function testImapLogin(account: ImapAccount, folder: string): Promise<void> {
  const client = await openImap(account);
  try {
    await client.mailboxOpen(folder, { readOnly: true });
  } finally {
    await client.logout().catch(() => {});
  }
}

/** A connection kept open on a folder, waiting in IDLE for new messages. */
export interface ImapWatch {
  close(): Promise<void>;
}

/**
 * Waits on `folder` with IDLE, where the server offers it: `onNew` runs when the server announces new messages,
 * `onEnd` when the connection ends (the caller may watch again). Null when the server has no IDLE: polling alone
 * then.
 */
export async function watchImap(
  account: ImapAccount,
  folder: string,
  on: { onNew(): void; onEnd(): void },
): Promise<ImapWatch | null> {
  const client = await openImap(account);
  if (!client.capabilities.has("IDLE")) {
    await client.logout().catch(() => {});
    return null;
  }
  try {
    await client.mailboxOpen(folder, { readOnly: true });
  } catch (e) {
    await client.logout().catch(() => {});
    throw e;
  }
  let closed = false;
  client.on("exists", () => on.onNew());
  client.on("close", () => {
    closed = true;
    on.onEnd();
  });
  // IDLE ends when the server or a command breaks it; enter it again while the connection lives.
  void (async () => {
    while (!closed && client.usable) await client.idle().catch(() => undefined);
  })();
  return {
    close: () => {
      closed = true;
      return client.logout().then(
        () => undefined,
        () => undefined,
      );
    },
  };
}

/** Opens a session on `folder` (locked for this session). */
export async function openImapSession(account: ImapAccount, folder: string): Promise<ImapSession> {
  const client = await openImap(account);
  const lock = await client.getMailboxLock(folder);
  return {
    async unread() {
      const uids = await client.search({ seen: false }, { uid: true });
      if (!uids || uids.length === 0) return [];
      const out: RawMessage[] = [];
      for await (const m of client.fetch(uids, { uid: true, source: true }, { uid: true })) {
        if (m.source) out.push({ uid: m.uid, source: m.source });
      }
      return out.sort((a, b) => a.uid - b.uid);
    },
    async byMessageId(messageId) {
      const uids = await client.search({ header: { "message-id": messageId } }, { uid: true });
      if (!uids || uids.length === 0) return null;
      const m = await client.fetchOne(String(uids[0]), { uid: true, source: true }, { uid: true });
      if (m === false || !m.source) return null; // fetchOne answers false when the message is gone
      return { uid: m.uid, source: m.source };
    },
    async markRead(uid) {
      await client.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true });
    },
    async moveTo(uid, target) {
      await client.messageMove(String(uid), target, { uid: true });
    },
    async close() {
      lock.release();
      await client.logout().catch(() => {});
    },
  };
}
