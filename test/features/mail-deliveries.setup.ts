import { afterAll, beforeAll, expect } from "bun:test";
import { Database } from "bun:sqlite";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";
import { startTestImap, type TestImap, connectInbox } from "../harness/imap";
import { tenantDbPath } from "../../tenants/paths";

// At-least-once without duplicates for mail: deliveries cut short (their outcome never recorded) are resumed from
// the message, linked to the instance that carries their id or started then; FAILED ones are retried by a Modeler.
// The crash is reproduced by putting the delivery row back the way a kill -9 leaves it (the kill -9 itself is in
// mail-rules.test.ts); raw 8-bit mail without a charset is read as windows-1252.

export const model = (key: string, name: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="http://t">
  <process id="${key}" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="${name}" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" /><endEvent id="e" />
  </process>
</definitions>`;

export type Delivery = {
  id: string;
  messageId: string;
  outcome: string;
  instanceId: string | null;
  reason: string | null;
};
export type Instance = { id: string; businessKey: string; definitionKey: string };

export let s: TestServer;
export let imap: TestImap;
export let tenantId: string;
export let admin: string;
export let modeler: string;
export let user: string;
export let otherModeler: string;
export let inboxId: string;
export let db: Database;

export const deliveries = async () =>
  (
    (await (await s.req("GET", "/api/a/mail-deliveries?size=100", { token: modeler })).json()) as {
      content: Delivery[];
    }
  ).content;
export const deliveryOf = async (id: string) => (await deliveries()).filter((d) => d.messageId === `<${id}>`);
export const instances = async (key = "mailorder") =>
  (
    (await (await s.req("GET", "/api/a/instances?size=100", { token: admin })).json()) as { content: Instance[] }
  ).content.filter((i) => i.definitionKey === key);
export const variablesOf = async (instanceId: string) =>
  (
    (await (await s.req("GET", `/api/a/instances/${instanceId}`, { token: admin })).json()) as {
      variables: Record<string, unknown>;
    }
  ).variables;
export const poll = () => s.platform.mailPoller.pollAll({ force: true });
/** The row as a kill -9 between the delivery's first write and its outcome leaves it. */
export const cutShort = (deliveryId: string) =>
  db
    .query("UPDATE mail_deliveries SET outcome = 'PENDING', instance_id = NULL, business_key = NULL WHERE id = ?")
    .run(deliveryId);
export const pendingRow = (messageId: string) => {
  const id = crypto.randomUUID();
  db.query(
    "INSERT INTO mail_deliveries (id, inbox_id, message_id, outcome, created_at) VALUES (?, ?, ?, 'PENDING', ?)",
  ).run(id, inboxId, `<${messageId}>`, new Date().toISOString());
  return id;
};
export const retry = (id: string, token = modeler) => s.req("POST", `/api/a/mail-deliveries/${id}/retry`, { token });

/** Registers the scenario of the mail delivery suites: an IMAP server, a tenant with an inbox and two rules. */
export function useMailDeliveriesScenario(): void {
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
    inboxId = await connectInbox(s, admin, imap);
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
    expect(
      (await rule({ name: "Files", definitionKey: "mailfiles", match: { subjectContains: "files" } })).status,
    ).toBe(201);
    db = new Database(tenantDbPath(s.dataDir, tenantId));
  });
  afterAll(async () => {
    db?.close();
    await s?.close();
    await imap?.close();
  });
}
