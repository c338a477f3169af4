import { describe, expect, test } from "bun:test";
import { expectError } from "../harness/fixtures";
import { rawMail } from "../harness/imap";
import {
  admin,
  cutShort,
  db,
  deliveryOf,
  imap,
  inboxId,
  instances,
  modeler,
  otherModeler,
  pendingRow,
  poll,
  retry,
  s,
  useMailDeliveriesScenario,
  user,
  variablesOf,
} from "./mail-deliveries.setup";
import type { Delivery } from "./mail-deliveries.setup";

// At-least-once without duplicates for mail: deliveries cut short (their outcome never recorded) are resumed from
// the message, linked to the instance that carries their id or started then; FAILED ones are retried by a Modeler.
// The crash is reproduced by putting the delivery row back the way a kill -9 leaves it (the kill -9 itself is in
// mail-rules.test.ts); raw 8-bit mail without a charset is read as windows-1252. The scenario: mail-deliveries.setup.ts.
useMailDeliveriesScenario();

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
