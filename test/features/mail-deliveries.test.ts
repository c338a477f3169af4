import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";
import { rawMail, startTestImap, type TestImap } from "../harness/imap";
import { tenantDbPath } from "../../tenants/paths";

// At-least-once without duplicates for mail: deliveries cut short (their outcome never recorded) are resumed from
// the message, linked to the instance that carries their id or started then; FAILED ones are retried by a Modeler.
// The crash is reproduced by putting the delivery row back the way a kill -9 leaves it (the kill -9 itself is in
// mail-rules.test.ts); raw 8-bit mail without a charset is read as windows-1252.

const model = (key: string, name: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="http://t">
  <process id="${key}" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="${name}" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" /><endEvent id="e" />
  </process>
</definitions>`;

type Delivery = { id: string; messageId: string; outcome: string; instanceId: string | null; reason: string | null };
type Instance = { id: string; businessKey: string; definitionKey: string };

let s: TestServer;
let imap: TestImap;
let tenantId: string;
let admin: string, modeler: string, user: string, otherModeler: string;
let inboxId: string;
let db: Database;

const deliveries = async () =>
  (
    (await (await s.req("GET", "/api/a/mail-deliveries?size=100", { token: modeler })).json()) as {
      content: Delivery[];
    }
  ).content;
const deliveryOf = async (id: string) => (await deliveries()).filter((d) => d.messageId === `<${id}>`);
const instances = async (key = "mailorder") =>
  (
    (await (await s.req("GET", "/api/a/instances?size=100", { token: admin })).json()) as { content: Instance[] }
  ).content.filter((i) => i.definitionKey === key);
const variablesOf = async (instanceId: string) =>
  (
    (await (await s.req("GET", `/api/a/instances/${instanceId}`, { token: admin })).json()) as {
      variables: Record<string, unknown>;
    }
  ).variables;
const poll = () => s.platform.mailPoller.pollAll({ force: true });
/** The row as a kill -9 between the delivery's first write and its outcome leaves it. */
const cutShort = (deliveryId: string) =>
  db
    .query("UPDATE mail_deliveries SET outcome = 'PENDING', instance_id = NULL, business_key = NULL WHERE id = ?")
    .run(deliveryId);
const pendingRow = (messageId: string) => {
  const id = crypto.randomUUID();
  db.query(
    "INSERT INTO mail_deliveries (id, inbox_id, message_id, outcome, created_at) VALUES (?, ?, ?, 'PENDING', ?)",
  ).run(id, inboxId, `<${messageId}>`, new Date().toISOString());
  return id;
};
const retry = (id: string, token = modeler) => s.req("POST", `/api/a/mail-deliveries/${id}/retry`, { token });

beforeAll(async () => {
  imap = await startTestImap();
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "resume-a", sa);
  tenantId = t.id;
  admin = (await userInTenant(s, t, "ADMIN", sa)).token;
  modeler = (await userInTenant(s, t, "MODELER", sa)).token;
  user = (await userInTenant(s, t, "USER", sa)).token;
  otherModeler = (await userInTenant(s, await createTenant(s, "resume-b", sa), "MODELER", sa)).token;
  await s.req("PUT", "/api/a/variables/IMAP_PW", { token: admin, json: { value: imap.password, secret: true } });
  await s.req("PUT", "/api/a/variables/MAIL_ALLOWED_PRIVATE_HOSTS", { token: admin, json: { value: "127.0.0.1" } });
  const inbox = await s.req("POST", "/api/a/mail-inboxes", {
    token: admin,
    json: {
      name: "Orders",
      host: imap.host,
      port: imap.port,
      tlsMode: "NONE",
      username: imap.user,
      passwordVariable: "IMAP_PW",
    },
  });
  expect(inbox.status).toBe(201);
  inboxId = (await inbox.json()).id;
  await deployBpmn(s, modeler, model("mailorder", "Handle order"));
  await deployBpmn(s, modeler, model("mailfiles", "File it"));
  const cfg = await s.req("PUT", "/api/a/definitions/mailorder/config", {
    token: modeler,
    json: { businessKeyTemplate: "ORD-${orderNo}" },
  });
  expect(cfg.status).toBe(200);
  const rule = (over: Record<string, unknown>) =>
    s.req("POST", "/api/a/mail-rules", { token: modeler, json: { inboxId, mapping: { text: "body" }, ...over } });
  expect(
    (
      await rule({
        name: "Orders",
        definitionKey: "mailorder",
        match: { subjectContains: "order" },
        mapping: {
          subject: "subject",
          text: "body",
          extract: [{ source: "SUBJECT", pattern: "Order (?<orderNo>\\d+)" }],
        },
      })
    ).status,
  ).toBe(201);
  expect((await rule({ name: "Files", definitionKey: "mailfiles", match: { subjectContains: "files" } })).status).toBe(
    201,
  );
  db = new Database(tenantDbPath(s.dataDir, tenantId));
});
afterAll(async () => {
  db?.close();
  await s?.close();
  await imap?.close();
});

describe("deliveries cut short are resumed", () => {
  test("one cut short after its start is linked to the instance that carries its id, not started again", async () => {
    await imap.append(rawMail({ messageId: "r1@customer.test", from: "a@customer.test", subject: "Order 1001" }));
    await poll();
    const [first] = await deliveryOf("r1@customer.test");
    expect(first).toMatchObject({ outcome: "STARTED" });
    expect((await variablesOf(first!.instanceId as string)).mailDeliveryId).toBe(first!.id);
    cutShort(first!.id);
    await imap.setSeen("<r1@customer.test>", false); // a crash leaves the message unread: it is read again
    await poll();
    const [again] = await deliveryOf("r1@customer.test");
    expect(again).toMatchObject({ id: first!.id, outcome: "STARTED", instanceId: first!.instanceId });
    expect(again!.reason).toMatch(/linked to the instance it had started/);
    expect((await instances()).filter((i) => i.businessKey === "ORD-1001")).toHaveLength(1);
    expect(await imap.unread()).toEqual([]);
  });

  test("one cut short before its start is started when its message is read again", async () => {
    await imap.append(rawMail({ messageId: "r2@customer.test", from: "a@customer.test", subject: "Order 1002" }));
    const id = pendingRow("r2@customer.test");
    await poll();
    const rows = await deliveryOf("r2@customer.test");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, outcome: "STARTED" });
    const mine = (await instances()).filter((i) => i.businessKey === "ORD-1002");
    expect(mine.map((i) => i.id)).toEqual([rows[0]!.instanceId as string]);
    expect((await variablesOf(mine[0]!.id)).mailDeliveryId).toBe(id);
  });

  test("one whose message was read meanwhile is run from the folder by Message-ID; a vanished one is FAILED", async () => {
    await imap.append(rawMail({ messageId: "r3@customer.test", from: "a@customer.test", subject: "Order 1003" }));
    await imap.setSeen("<r3@customer.test>", true);
    const id = pendingRow("r3@customer.test");
    const gone = pendingRow("gone@customer.test");
    await poll();
    expect((await deliveryOf("r3@customer.test"))[0]).toMatchObject({ id, outcome: "STARTED" });
    expect((await instances()).filter((i) => i.businessKey === "ORD-1003")).toHaveLength(1);
    const [vanished] = await deliveryOf("gone@customer.test");
    expect(vanished).toMatchObject({ id: gone, outcome: "FAILED", instanceId: null });
    expect(vanished!.reason).toMatch(/no longer in the folder.*retry/);
    // Still nowhere: a retry says so and the delivery stays FAILED.
    await expectError(await retry(gone), 409, "no longer in INBOX");
    expect((await deliveryOf("gone@customer.test"))[0]!.outcome).toBe("FAILED");
  });
});

describe("POST /a/mail-deliveries/{id}/retry", () => {
  test("re-runs a FAILED delivery through the rules once its cause is fixed", async () => {
    await s.req("PUT", "/api/a/definitions/mailfiles/config", {
      token: modeler,
      json: { attachmentPolicy: { uploadMode: "DISABLED", uploadRoles: [], previewRoles: [], replaceRoles: [] } },
    });
    await imap.append(
      rawMail({
        messageId: "f1@customer.test",
        from: "a@customer.test",
        subject: "files for you",
        attachment: { name: "scan.pdf", type: "application/pdf", content: "%PDF-1.4 scan" },
      }),
    );
    await poll();
    const [failed] = await deliveryOf("f1@customer.test");
    expect(failed).toMatchObject({ outcome: "FAILED", instanceId: null });
    expect(failed!.reason).toMatch(/attachments are disabled/);
    expect(await instances("mailfiles")).toHaveLength(0);
    await s.req("PUT", "/api/a/definitions/mailfiles/config", {
      token: modeler,
      json: { attachmentPolicy: { uploadMode: "FORM_ONLY", uploadRoles: [], previewRoles: [], replaceRoles: [] } },
    });
    const res = await retry(failed!.id);
    expect(res.status).toBe(200);
    const done = (await res.json()) as Delivery;
    expect(done).toMatchObject({ id: failed!.id, outcome: "STARTED", reason: null });
    const started = await instances("mailfiles");
    expect(started.map((i) => i.id)).toEqual([done.instanceId as string]);
    const files = await (
      await s.req("GET", `/api/a/attachments?entityType=PROCESS_INSTANCE&entityId=${done.instanceId}`, { token: admin })
    ).json();
    expect(files.map((f: { fileName: string }) => f.fileName)).toEqual(["scan.pdf"]);
    // Done once: a second retry is refused and starts nothing.
    await expectError(await retry(failed!.id), 409, "only a FAILED delivery can be retried");
    expect(await instances("mailfiles")).toHaveLength(1);
  });

  test("a FAILED delivery whose instance exists (an older crash) is linked, not started twice", async () => {
    await imap.append(rawMail({ messageId: "r4@customer.test", from: "a@customer.test", subject: "Order 1004" }));
    await poll();
    const [row] = await deliveryOf("r4@customer.test");
    db.query(
      "UPDATE mail_deliveries SET outcome = 'FAILED', instance_id = NULL, reason = 'interrupted' WHERE id = ?",
    ).run(row!.id);
    const res = await retry(row!.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ outcome: "STARTED", instanceId: row!.instanceId });
    expect((await instances()).filter((i) => i.businessKey === "ORD-1004")).toHaveLength(1);
  });

  test("refusals: unknown id, another tenant's, a USER, a message without Message-ID", async () => {
    await expectError(await retry("00000000-0000-0000-0000-000000000000"), 404, "not found");
    const [row] = await deliveryOf("r1@customer.test");
    await expectError(await retry(row!.id, otherModeler), 404);
    await expectError(await retry(row!.id, user), 403);
    const id = crypto.randomUUID();
    db.query(
      "INSERT INTO mail_deliveries (id, inbox_id, message_id, outcome, created_at) VALUES (?, ?, ?, 'FAILED', ?)",
    ).run(id, inboxId, `sha256:${"0".repeat(64)}`, new Date().toISOString());
    await expectError(await retry(id), 409, "no Message-ID");
  });
});

describe("raw 8-bit mail without a charset", () => {
  test("subject and body that are not valid UTF-8 are read as windows-1252", async () => {
    const raw = Buffer.concat([
      Buffer.from("From: erp@customer.test\r\nTo: orders@shop.test\r\nSubject: Order 1005 Fatura n"),
      Buffer.from([0xba]),
      Buffer.from(" 12 "),
      Buffer.from([0x80]),
      Buffer.from("\r\nMessage-ID: <w1@customer.test>\r\nMIME-Version: 1.0\r\n\r\nCorpo: a"),
      Buffer.from([0xe7, 0xe3]),
      Buffer.from("o\r\n"),
    ]);
    await imap.append(raw);
    await poll();
    const [row] = await deliveryOf("w1@customer.test");
    expect(row).toMatchObject({ outcome: "STARTED" });
    const vars = await variablesOf(row!.instanceId as string);
    expect(vars.subject).toBe("Order 1005 Fatura nº 12 €");
    expect(String(vars.body).trim()).toBe("Corpo: ação");
  });
});

describe("rules: body contains", () => {
  test("a rule matches on the plain body, case-insensitively; a too long condition answers 400", async () => {
    const res = await s.req("POST", "/api/a/mail-rules", {
      token: modeler,
      json: {
        name: "Refunds",
        definitionKey: "mailfiles",
        inboxId,
        priority: 10,
        match: { bodyContains: "URGENT refund" },
        mapping: {},
      },
    });
    expect(res.status).toBe(201);
    expect((await res.json()).match).toMatchObject({ bodyContains: "URGENT refund" });
    await imap.append(
      rawMail({
        messageId: "b1@customer.test",
        from: "a@customer.test",
        subject: "Order 1006",
        text: "An urgent Refund, please",
      }),
    );
    await imap.append(
      rawMail({ messageId: "b2@customer.test", from: "a@customer.test", subject: "Order 1007", text: "Not urgent" }),
    );
    const before = (await instances("mailfiles")).length;
    await poll();
    const [b1] = await deliveryOf("b1@customer.test");
    const [b2] = await deliveryOf("b2@customer.test");
    expect((await instances("mailfiles")).map((i) => i.id)).toContain(b1!.instanceId as string);
    expect(await instances("mailfiles")).toHaveLength(before + 1);
    expect((await instances()).map((i) => i.id)).toContain(b2!.instanceId as string); // the order rule took it
    const tooLong = await s.req("POST", "/api/a/mail-rules", {
      token: modeler,
      json: { name: "x", definitionKey: "mailfiles", match: { bodyContains: "x".repeat(501) }, mapping: {} },
    });
    await expectError(tooLong, 400, "bodyContains");
  });
});

const CLAIM = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="http://t">
  <message id="m_reply" name="reply" />
  <process id="claim" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="wait" />
    <receiveTask id="wait" name="Wait for the reply" messageRef="m_reply" /><sequenceFlow id="f2" sourceRef="wait" targetRef="t" />
    <userTask id="t" name="Read the reply" /><sequenceFlow id="f3" sourceRef="t" targetRef="e" /><endEvent id="e" />
  </process>
</definitions>`;

/** A plain message with extra header lines (a thread's In-Reply-To, a partner's own header). */
const mailWith = (m: { messageId: string; from: string; subject: string; text: string; extra?: string[] }) =>
  [
    `From: ${m.from}`,
    "To: claims@shop.test",
    `Subject: ${m.subject}`,
    `Message-ID: <${m.messageId}>`,
    ...(m.extra ?? []),
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    m.text,
    "",
  ].join("\r\n");

describe("rules that correlate with a running instance", () => {
  const startClaim = async (businessKey: string) => {
    const res = await s.req("POST", "/api/a/instances", {
      token: admin,
      json: { definitionKey: "claim", businessKey },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const rule = (json: Record<string, unknown>) =>
    s.req("POST", "/api/a/mail-rules", { token: modeler, json: { definitionKey: "claim", inboxId, ...json } });
  const waitingAt = async (id: string) =>
    ((await (await s.req("GET", `/api/a/instances/${id}`, { token: admin })).json()) as { activeActivityIds: string[] })
      .activeActivityIds;

  beforeAll(async () => {
    await deployBpmn(s, modeler, CLAIM);
    const made = [
      await rule({
        name: "Claim replies by subject",
        priority: 1,
        match: { subjectContains: "CLM-" },
        mapping: { text: "replyText" },
        correlate: {
          messageName: "reply",
          key: { source: "SUBJECT", pattern: "(?<key>CLM-\\d+)" },
          fallback: "NO_MATCH",
        },
      }),
      await rule({
        name: "Partner claims by header",
        priority: 2,
        match: { from: "partner.test" },
        mapping: { text: "replyText" },
        correlate: { messageName: "reply", key: { source: "HEADER", header: "X-Claim" }, fallback: "START" },
      }),
      await rule({
        name: "Replies in the thread",
        priority: 3,
        match: { subjectContains: "Re:" },
        mapping: { text: "replyText" },
        correlate: { messageName: "reply", key: { source: "IN_REPLY_TO" } },
      }),
    ];
    for (const r of made) expect(r.status).toBe(201);
  });

  test("a key in the subject delivers the mail to the waiting receive task with its variables and attachment", async () => {
    const id = await startClaim("CLM-1");
    expect(await waitingAt(id)).toEqual(["wait"]);
    await imap.append(
      rawMail({
        messageId: "c1@customer.test",
        from: "a@customer.test",
        subject: "About CLM-1",
        text: "Photos attached",
        attachment: { name: "photo.pdf", type: "application/pdf", content: "%PDF-1.4 photo" },
      }),
    );
    await poll();
    const [d] = await deliveryOf("c1@customer.test");
    expect(d).toMatchObject({ outcome: "CORRELATED", instanceId: id });
    expect(await waitingAt(id)).toEqual(["t"]);
    const vars = await variablesOf(id);
    expect(String(vars.replyText).trim()).toBe("Photos attached");
    expect(vars.mailDeliveryId).toBe(d!.id);
    const files = await (
      await s.req("GET", `/api/a/attachments?entityType=PROCESS_INSTANCE&entityId=${id}`, { token: admin })
    ).json();
    expect(files.map((f: { fileName: string }) => f.fileName)).toEqual(["photo.pdf"]);
  });

  test("no waiting instance: NO_MATCH is logged and nothing starts (fallback NO_MATCH)", async () => {
    const before = (await instances("claim")).length;
    await imap.append(rawMail({ messageId: "c2@customer.test", from: "a@customer.test", subject: "About CLM-999" }));
    await poll();
    const [d] = await deliveryOf("c2@customer.test");
    expect(d).toMatchObject({ outcome: "NO_MATCH", instanceId: null });
    expect(d!.reason).toContain("no instance waits for message 'reply' with business key 'CLM-999'");
    expect(await instances("claim")).toHaveLength(before);
  });

  test("a key in a header correlates; with fallback START an unknown key starts the rule's definition", async () => {
    const id = await startClaim("CLM-2");
    await imap.append(
      mailWith({
        messageId: "p1@partner.test",
        from: "x@partner.test",
        subject: "Update",
        text: "ok",
        extra: ["X-Claim: CLM-2"],
      }),
    );
    await imap.append(
      mailWith({
        messageId: "p2@partner.test",
        from: "x@partner.test",
        subject: "New",
        text: "new",
        extra: ["X-Claim: CLM-404"],
      }),
    );
    await poll();
    expect((await deliveryOf("p1@partner.test"))[0]).toMatchObject({ outcome: "CORRELATED", instanceId: id });
    const [fresh] = await deliveryOf("p2@partner.test");
    expect(fresh).toMatchObject({ outcome: "STARTED" });
    expect(fresh!.instanceId).not.toBe(id);
    expect(await waitingAt(fresh!.instanceId as string)).toEqual(["wait"]);
  });

  test("a reply in the thread (In-Reply-To) reaches the instance its first mail started", async () => {
    const [first] = await deliveryOf("p2@partner.test");
    await imap.append(
      mailWith({
        messageId: "p3@customer.test",
        from: "a@customer.test",
        subject: "Re: New",
        text: "my answer",
        extra: ["In-Reply-To: <p2@partner.test>"],
      }),
    );
    await poll();
    expect((await deliveryOf("p3@customer.test"))[0]).toMatchObject({
      outcome: "CORRELATED",
      instanceId: first!.instanceId,
    });
    expect(String((await variablesOf(first!.instanceId as string)).replyText).trim()).toBe("my answer");
  });

  test("a header key without its header name, or a bad key pattern, answers 400", async () => {
    const bad = { messageName: "reply", key: { source: "HEADER" } };
    await expectError(await rule({ name: "x", correlate: bad }), 400, "correlate.key.header");
    const badPattern = { messageName: "reply", key: { source: "SUBJECT", pattern: "(" } };
    await expectError(await rule({ name: "x", correlate: badPattern }), 400, "correlate.key.pattern");
    await expectError(await rule({ name: "x", correlate: { messageName: "", key: { source: "SUBJECT" } } }), 400);
  });
});
