import { beforeAll, describe, expect, test } from "bun:test";
import { expectError } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";
import { rawMail } from "../harness/imap";
import {
  admin,
  deliveryOf,
  imap,
  inboxId,
  instances,
  modeler,
  poll,
  s,
  useMailDeliveriesScenario,
  variablesOf,
} from "./mail-deliveries.setup";

// Mail rules that look at the body, and rules that correlate a mail with a running instance (a message name, a
// business key from the subject, a header or the thread). The scenario: mail-deliveries.setup.ts.
useMailDeliveriesScenario();

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
