import hoodiecrow from "hoodiecrow-imap";
import { ImapFlow } from "imapflow";

export interface TestImap {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Appends a raw message (text, or bytes as sent) to a folder through IMAP (as a mail server delivering it would). */
  append(raw: string | Buffer, folder?: string): Promise<void>;
  /** Sets or clears \Seen on every message of a folder with that Message-ID (as a person reading it would). */
  setSeen(messageId: string, seen: boolean, folder?: string): Promise<void>;
  /** UIDs of the unread messages of a folder. */
  unread(folder?: string): Promise<number[]>;
  /** XOAUTH2 servers: the one access token the account accepts from now on (as a provider validating its tokens). */
  acceptAccessToken(token: string): void;
  close(): Promise<void>;
}

/**
 * A real IMAP server on 127.0.0.1 (hoodiecrow, in-process) with one account. `xoauth2`: it also offers SASL XOAUTH2,
 * accepting the access token set by `acceptAccessToken` (none until then).
 */
export async function startTestImap(
  user = "inbox@test.local",
  password = "imap-pass-1",
  opts: { xoauth2?: boolean } = {},
): Promise<TestImap> {
  const users: Record<string, { password: string; xoauth2?: { accessToken: string } }> = {
    [user]: { password, ...(opts.xoauth2 ? { xoauth2: { accessToken: crypto.randomUUID() } } : {}) },
  };
  const server = hoodiecrow({
    plugins: [
      "ID",
      "UNSELECT",
      "ENABLE",
      "IDLE",
      "UIDPLUS",
      "MOVE",
      "SPECIAL-USE",
      ...(opts.xoauth2 ? ["SASL-IR", "XOAUTH2"] : []),
    ],
    users,
    storage: { INBOX: { messages: [] }, "": { separator: "/", folders: { Processed: { messages: [] } } } },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = server.server.address().port;
  const withClient = async <T>(fn: (c: ImapFlow) => Promise<T>) => {
    const c = new ImapFlow({ host: "127.0.0.1", port, secure: false, auth: { user, pass: password }, logger: false });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.logout();
    }
  };
  return {
    host: "127.0.0.1",
    port,
    user,
    password,
    append: (raw, folder = "INBOX") => withClient(async (c) => void (await c.append(folder, raw))),
    setSeen: (messageId, seen, folder = "INBOX") =>
      withClient(async (c) => {
        const lock = await c.getMailboxLock(folder);
        try {
          const uids = (await c.search({ header: { "message-id": messageId } }, { uid: true })) || [];
          if (uids.length === 0) throw new Error(`no message ${messageId} in ${folder}`);
          const set = uids.join(",");
          if (seen) await c.messageFlagsAdd(set, ["\\Seen"], { uid: true });
          else await c.messageFlagsRemove(set, ["\\Seen"], { uid: true });
        } finally {
          lock.release();
        }
      }),
    unread: (folder = "INBOX") =>
      withClient(async (c) => {
        const lock = await c.getMailboxLock(folder);
        try {
          return (await c.search({ seen: false }, { uid: true })) || [];
        } finally {
          lock.release();
        }
      }),
    acceptAccessToken(token) {
      const u = users[user];
      if (u) u.xoauth2 = { accessToken: token };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A plain message; `attachment` adds one base64 file part. */
export function rawMail(m: {
  messageId: string;
  from: string;
  to?: string;
  subject: string;
  text?: string;
  attachment?: { name: string; type: string; content: string };
}): string {
  const head = [
    `From: ${m.from}`,
    `To: ${m.to ?? "orders@shop.test"}`,
    `Subject: ${m.subject}`,
    `Message-ID: <${m.messageId}>`,
    "Date: Mon, 5 Jan 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
  ];
  const text = m.text ?? "Hello";
  if (!m.attachment) return [...head, "Content-Type: text/plain; charset=utf-8", "", text, ""].join("\r\n");
  const b = "----b1";
  return [
    ...head,
    `Content-Type: multipart/mixed; boundary="${b}"`,
    "",
    `--${b}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    text,
    `--${b}`,
    `Content-Type: ${m.attachment.type}; name="${m.attachment.name}"`,
    `Content-Disposition: attachment; filename="${m.attachment.name}"`,
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from(m.attachment.content).toString("base64"),
    `--${b}--`,
    "",
  ].join("\r\n");
}

/**
 * Connects `imap` as a password inbox of the admin's tenant through the API: the password in the secret tenant
 * variable IMAP_PW, 127.0.0.1 allowed as an internal mail host. Answers the inbox id (the creation must answer 201).
 */
export async function connectInbox(
  s: { req(method: string, path: string, opts?: { token?: string; json?: unknown }): Promise<Response> },
  adminToken: string,
  imap: TestImap,
  name = "Orders",
): Promise<string> {
  await s.req("PUT", "/api/a/variables/IMAP_PW", { token: adminToken, json: { value: imap.password, secret: true } });
  await s.req("PUT", "/api/a/variables/MAIL_ALLOWED_PRIVATE_HOSTS", {
    token: adminToken,
    json: { value: "127.0.0.1" },
  });
  const inbox = await s.req("POST", "/api/a/mail-inboxes", {
    token: adminToken,
    json: { name, host: imap.host, port: imap.port, tlsMode: "NONE", username: imap.user, passwordVariable: "IMAP_PW" },
  });
  if (inbox.status !== 201) throw new Error(`inbox ${inbox.status}: ${await inbox.text()}`);
  return ((await inbox.json()) as { id: string }).id;
}
