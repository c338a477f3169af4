// bench:soak's company set-up: `count` tenants, each a small firm with its own administrator (a real user, so MCP's
// HTTP Basic credential is exercised), a process with a start form, a user task, a script, a decision and a timer, a
// webhook to the soak receiver, a CMS collection and a knowledge base.

import { benchClient, benchTenant, fileForm, type Json } from "./bench-client";
import { DISCOUNT_TABLE } from "./hostile";

export interface SoakTenant {
  slug: string;
  id: string;
  token: string;
  /** Access tokens last an hour: the driver renews them with this, as a client does (POST /auth/refresh). */
  refreshToken: string;
  email: string;
  password: string;
  /** The firm's own address (X-Forwarded-For): the login limiter counts per address, as it would per office. */
  ip: string;
  collectionId: string;
  baseId: string;
}

/** The process every tenant runs: start form → review → script → decision → a timer of `wait` → end. */
export const SOAK_BPMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  targetNamespace="soak">
  <process id="soak" isExecutable="true">
    <startEvent id="s" camunda:formKey="soak-start"/><sequenceFlow id="f1" sourceRef="s" targetRef="review"/>
    <userTask id="review" name="Review request"/><sequenceFlow id="f2" sourceRef="review" targetRef="score"/>
    <scriptTask id="score" scriptFormat="javascript"><script><![CDATA[
      const amount = execution.getVariable("amount"); execution.setVariable("score", amount * 2 + 1);
    ]]></script></scriptTask><sequenceFlow id="f3" sourceRef="score" targetRef="rate"/>
    <businessRuleTask id="rate" camunda:decisionRef="discount" camunda:resultVariable="rate"/>
    <sequenceFlow id="f4" sourceRef="rate" targetRef="pause"/>
    <intermediateCatchEvent id="pause"><timerEventDefinition><timeDuration>\${wait}</timeDuration></timerEventDefinition></intermediateCatchEvent>
    <sequenceFlow id="f5" sourceRef="pause" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

export const SOAK_FORM = {
  key: "soak-start",
  name: "Request",
  schema: {
    fields: [
      { key: "amount", type: "integer", label: "Amount", required: true },
      { key: "wait", type: "text", label: "Pause", required: true },
      { key: "note", type: "text", label: "Note" },
    ],
  },
};

export const SOAK_DMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="soakdmn" name="soak" namespace="soak">
  ${DISCOUNT_TABLE}
</definitions>`;

export const WEBHOOK_EVENTS = [
  "process.instance.started",
  "process.instance.completed",
  "task.created",
  "task.assigned",
  "task.completed",
];

const PASSWORD = "soak-password";

export async function setUpTenants(base: string, count: number, receiverPort: number): Promise<SoakTenant[]> {
  let ip = "127.0.0.1";
  const client = benchClient(base);
  const ok = (token: string, method: string, path: string, body?: unknown) => client.ok(token, method, path, body, ip);
  const file = (name: string, text: string) => fileForm(name, text);
  const sa = (await ok("", "POST", "/api/auth/login", { email: "sa@bench", password: "bench-password" })).accessToken;
  const secrets: Record<string, string> = {};
  const tenants: SoakTenant[] = [];
  const slugs = Array.from({ length: count }, (_, i) => `firm-${String(i).padStart(2, "0")}`);
  const one = async (slug: string, i: number) => {
    ip = `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    const firmIp = ip;
    const { id, token, refreshToken, email } = await benchTenant(base, slug, { sa, password: PASSWORD, ip: firmIp });
    ip = firmIp;
    await ok(token, "POST", "/api/a/definitions/deploy", file("soak.bpmn", SOAK_BPMN));
    await ok(token, "POST", "/api/a/definitions/soak/forms", SOAK_FORM);
    await ok(token, "PUT", "/api/a/definitions/soak/config", { mcpPolicy: "START_AND_COMPLETE" });
    await ok(token, "POST", "/api/a/decisions", file("soak.dmn", SOAK_DMN));
    const hook = await ok(token, "POST", "/api/a/webhooks", {
      url: `http://127.0.0.1:${receiverPort}/${slug}`,
      events: WEBHOOK_EVENTS,
    });
    secrets[`/${slug}`] = hook.secret;
    const collection = await ok(token, "POST", "/api/a/cms/collections", {
      name: "orders",
      fields: [
        { name: "sku", type: "text", required: true },
        { name: "price", type: "number" },
      ],
      confidentiality: "PUBLIC",
    });
    await ok(token, "POST", `/api/a/cms/collections/${collection.id}/records/bulk`, {
      records: Array.from({ length: 200 }, (_, i) => ({ sku: `S${i}`, price: i })),
    });
    const kb = await ok(token, "POST", "/api/a/knowledge-bases", { name: "Handbook" });
    tenants.push({
      slug,
      id,
      token,
      refreshToken,
      email,
      password: PASSWORD,
      ip: firmIp,
      collectionId: collection.id,
      baseId: kb.id,
    });
  };
  // One firm after the other (the address of each call is the firm's own).
  for (const [i, slug] of slugs.entries()) await one(slug, i);
  const r = await fetch(`http://127.0.0.1:${receiverPort}/secrets`, { method: "POST", body: JSON.stringify(secrets) });
  if (r.status !== 204) throw new Error(`receiver secrets: ${r.status}`);
  return tenants.sort((a, b) => a.slug.localeCompare(b.slug));
}
