import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";
import { rawMail, startTestImap, type TestImap, connectInbox } from "../harness/imap";

const JWT = "test-secret-with-enough-entropy-0123456789";
const model = (key: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="http://t">
  <process id="${key}" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="Handle order" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" /><endEvent id="e" />
  </process>
</definitions>`;

let s: TestServer;
let imap: TestImap;
let tenantId: string;
let admin: string, modeler: string, user: string, otherModeler: string;
let inboxId: string;

type Delivery = {
  messageId: string;
  outcome: string;
  instanceId: string | null;
  businessKey: string | null;
  reason: string | null;
  ruleId: string | null;
};
const deliveries = async (query = "") =>
  (await (await s.req("GET", `/api/a/mail-deliveries?size=100${query}`, { token: modeler })).json()) as {
    content: Delivery[];
    totalElements: number;
  };
const instances = async () =>
  (
    (await (await s.req("GET", "/api/a/instances?size=100", { token: admin })).json()) as {
      content: { id: string; businessKey: string; definitionKey: string }[];
    }
  ).content.filter((i) => i.definitionKey === "mailorder");
const byId = (list: Delivery[], id: string) => list.filter((d) => d.messageId === `<${id}>` || d.messageId === id);

beforeAll(async () => {
  imap = await startTestImap();
  s = await startTestServer({ env: { JWT_SECRET: JWT } });
  const sa = await saToken(s);
  const t = await createTenant(s, "rules-a", sa);
  tenantId = t.id;
  admin = (await userInTenant(s, t, "ADMIN", sa)).token;
  modeler = (await userInTenant(s, t, "MODELER", sa)).token;
  user = (await userInTenant(s, t, "USER", sa)).token;
  const other = await createTenant(s, "rules-b", sa);
  otherModeler = (await userInTenant(s, other, "MODELER", sa)).token;
  await deployBpmn(s, otherModeler, model("othersprocess"));
  inboxId = await connectInbox(s, admin, imap);
  await deployBpmn(s, modeler, model("mailorder"));
  // FORM_ONLY: people cannot upload ad hoc, yet mail (acting as the system, origin PROCESS) stores its attachments.
  const cfg = await s.req("PUT", "/api/a/definitions/mailorder/config", {
    token: modeler,
    json: {
      businessKeyTemplate: "ORD-${orderNo}",
      attachmentPolicy: { uploadMode: "FORM_ONLY", uploadRoles: [], previewRoles: [], replaceRoles: [] },
    },
  });
  expect(cfg.status).toBe(200);
});
afterAll(async () => {
  await s.close();
  await imap.close();
});

const ruleBody = (over: Record<string, unknown> = {}) => ({
  name: "Orders by mail",
  definitionKey: "mailorder",
  inboxId,
  match: { subjectContains: "order", from: "customer.test" },
  mapping: {
    subject: "mailSubject",
    from: "sender",
    text: "body",
    extract: [{ source: "SUBJECT", pattern: "Order (?<orderNo>\\d+)" }],
  },
  ...over,
});

describe("mail rules", () => {
  let ruleId: string;

  test("a Modeler creates a rule; bad references and patterns answer 400", async () => {
    const res = await s.req("POST", "/api/a/mail-rules", { token: modeler, json: ruleBody() });
    expect(res.status).toBe(201);
    const rule = await res.json();
    expect(rule).toMatchObject({ definitionKey: "mailorder", priority: 100, enabled: true, inboxId });
    ruleId = rule.id;
    const bad = (over: Record<string, unknown>, part: string) =>
      s
        .req("POST", "/api/a/mail-rules", { token: modeler, json: ruleBody(over) })
        .then((r) => expectError(r, 400, part));
    await bad({ definitionKey: "othersprocess" }, "definitionKey");
    await bad({ inboxId: "00000000-0000-0000-0000-000000000000" }, "inboxId");
    await bad({ match: { subjectRegex: "(" } }, "subjectRegex");
    // Patterns run on a linear-time engine (RE2): what needs backtracking is refused when the rule is saved.
    await bad({ match: { subjectRegex: "(a+)\\1" } }, "linear-time engine");
    await bad({ mapping: { extract: [{ source: "SUBJECT", pattern: "(?<n>\\d+)(?=x)" }] } }, "linear-time engine");
    await bad({ mapping: { extract: [{ source: "SUBJECT", pattern: "\\d+" }] } }, "named group");
    await bad({ attachmentDocumentTypeId: "nope" }, "document type");
    await expectError(await s.req("POST", "/api/a/mail-rules", { token: modeler, json: { name: "x" } }), 400);
  });

  test("rules and deliveries are Modeler's; another tenant's rule answers 404", async () => {
    await expectError(await s.req("GET", "/api/a/mail-rules", { token: user }), 403);
    await expectError(await s.req("POST", "/api/a/mail-rules", { token: user, json: ruleBody() }), 403);
    await expectError(await s.req("GET", "/api/a/mail-deliveries", { token: user }), 403);
    expect((await s.req("GET", "/api/a/mail-rules", { token: admin })).status).toBe(200);
    await expectError(await s.req("GET", `/api/a/mail-rules/${ruleId}`, { token: otherModeler }), 404);
    await expectError(
      await s.req("PATCH", `/api/a/mail-rules/${ruleId}`, { token: otherModeler, json: { priority: 1 } }),
      404,
    );
    await expectError(await s.req("DELETE", `/api/a/mail-rules/${ruleId}`, { token: otherModeler }), 404);
    expect((await (await s.req("GET", "/api/a/mail-deliveries", { token: otherModeler })).json()).totalElements).toBe(
      0,
    );
  });

  test("a matching message starts exactly one instance with its variables and attachment", async () => {
    await imap.append(
      rawMail({
        messageId: "m1@customer.test",
        from: "Ann <ann@customer.test>",
        subject: "Order 4711 please",
        text: "Two boxes",
        attachment: { name: "order.pdf", type: "application/pdf", content: "%PDF-1.4 order" },
      }),
    );
    await s.platform.mailPoller.pollAll({ force: true });
    const [d] = byId((await deliveries()).content, "m1@customer.test");
    expect(d).toMatchObject({ outcome: "STARTED", businessKey: "ORD-4711", ruleId });
    const started = await instances();
    expect(started.map((i) => i.id)).toEqual([d!.instanceId as string]);
    const inst = await (await s.req("GET", `/api/a/instances/${d!.instanceId}`, { token: admin })).json();
    expect(inst.variables).toMatchObject({
      sender: "ann@customer.test",
      mailSubject: "Order 4711 please",
      orderNo: "4711",
    });
    const files = await (
      await s.req("GET", `/api/a/attachments?entityType=PROCESS_INSTANCE&entityId=${d!.instanceId}`, { token: admin })
    ).json();
    expect(files.map((f: { fileName: string }) => f.fileName)).toEqual(["order.pdf"]);
    expect(await imap.unread()).toEqual([]);
    // The same message delivered again (same Message-ID) is not handled twice.
    await imap.append(
      rawMail({ messageId: "m1@customer.test", from: "ann@customer.test", subject: "Order 4711 please" }),
    );
    await s.platform.mailPoller.pollAll({ force: true });
    expect(byId((await deliveries()).content, "m1@customer.test")).toHaveLength(1);
    expect(await instances()).toHaveLength(1);
  });

  test("a message no rule matches is logged NO_RULE; a bad business key is logged FAILED and leaves no instance", async () => {
    await imap.append(rawMail({ messageId: "m2@else.test", from: "x@else.test", subject: "Order 5 from elsewhere" }));
    await imap.append(
      rawMail({ messageId: "m3@customer.test", from: "b@customer.test", subject: "order without a number" }),
    );
    await s.platform.mailPoller.pollAll({ force: true });
    const all = (await deliveries()).content;
    expect(byId(all, "m2@else.test")[0]).toMatchObject({ outcome: "NO_RULE", instanceId: null, ruleId: null });
    const failed = byId(all, "m3@customer.test")[0];
    expect(failed).toMatchObject({ outcome: "FAILED", instanceId: null, ruleId });
    expect(failed!.reason).toMatch(/orderNo|business key/i);
    expect(await instances()).toHaveLength(1);
    const onlyFailed = await deliveries("&outcome=FAILED");
    expect(onlyFailed.content.map((x) => x.outcome)).toEqual(["FAILED"]);
    await expectError(await s.req("GET", "/api/a/mail-deliveries?outcome=MAYBE", { token: modeler }), 400);
    // Newest first.
    const page = await (await s.req("GET", "/api/a/mail-deliveries?size=1", { token: modeler })).json();
    expect(page).toMatchObject({ size: 1, totalElements: 3, totalPages: 3 });
  });

  test("where the server offers IDLE, a new message is read as soon as it arrives, without waiting for a poll", async () => {
    // Earlier reads opened the watching connection; no poll runs by itself in this test server (no timer started).
    await imap.append(rawMail({ messageId: "idle1@customer.test", from: "c@customer.test", subject: "Order 777" }));
    let rows: Delivery[] = [];
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      await Bun.sleep(50);
      rows = byId((await deliveries()).content, "idle1@customer.test");
    }
    expect(rows.map((d) => d.outcome)).toEqual(["STARTED"]);
  });

  test("kill -9 in the middle of a batch and a restart start nothing twice and lose nothing", async () => {
    // This service stops reading (and watching) so that only the child process reads the batch.
    await s.platform.mailPoller.stop();
    const ids = ["k1", "k2", "k3", "k4"].map((k) => `${k}@customer.test`);
    for (const [i, id] of ids.entries())
      await imap.append(rawMail({ messageId: id, from: "c@customer.test", subject: `Order ${900 + i}` }));
    const child = Bun.spawn(
      [process.execPath, join(import.meta.dir, "../harness/mail-child.ts"), s.dataDir, JWT, tenantId],
      {
        stdout: "ignore",
        stderr: "inherit",
      },
    );
    await child.exited;
    expect(child.signalCode).toBe("SIGKILL");
    const before = (await deliveries()).content.filter((d) => ids.some((id) => byId([d], id).length));
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(ids.length);
    await s.platform.mailPoller.pollAll({ force: true });
    const after = (await deliveries()).content;
    const started = await instances();
    for (const [i, id] of ids.entries()) {
      const rows = byId(after, id);
      expect(rows).toHaveLength(1);
      // At least once without duplicates: the one cut short is resumed (linked or started now), none is lost.
      expect(rows[0]!.outcome).toBe("STARTED");
      const mine = started.filter((x) => x.businessKey === `ORD-${900 + i}`);
      expect(mine.map((x) => x.id)).toEqual([rows[0]!.instanceId as string]);
    }
    expect(await imap.unread()).toEqual([]);
  });
});
