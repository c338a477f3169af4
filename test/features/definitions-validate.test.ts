import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

const model = (body: string, di = "") => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" targetNamespace="t">
  <process id="claim" name="Claim" isExecutable="true">${body}</process>${di}</definitions>`;
const DI = `<bpmndi:BPMNDiagram id="d"><bpmndi:BPMNPlane id="pl" bpmnElement="claim">
  <bpmndi:BPMNShape id="s_di" bpmnElement="s"><dc:Bounds x="0" y="0" width="36" height="36"/></bpmndi:BPMNShape>
</bpmndi:BPMNPlane></bpmndi:BPMNDiagram>`;
const SMELLY = model(`<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="g"/><exclusiveGateway id="g"/>
  <sequenceFlow id="a" sourceRef="g" targetRef="t"><conditionExpression>\${x}</conditionExpression></sequenceFlow>
  <sequenceFlow id="b" sourceRef="g" targetRef="e"/><userTask id="t"/><endEvent id="e"/><userTask id="lonely"/>`);

let s: TestServer;
const tok: Record<string, string> = {};
beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "validate-a", sa);
  tok.MODELER = (await userInTenant(s, t, "MODELER", sa)).token;
  tok.ADMIN = (await userInTenant(s, t, "ADMIN", sa)).token;
  tok.USER = (await userInTenant(s, t, "USER", sa)).token;
});
afterAll(() => s.close());

describe("structural validation", () => {
  test("a Modeler gets each finding without deploying; a User is refused; XML that is not BPMN is 400", async () => {
    const before = (await (await s.req("GET", "/api/a/definitions", { token: tok.ADMIN })).json()) as unknown[];
    const r = await s.req("POST", "/api/a/definitions/validate", { token: tok.MODELER, json: { xml: SMELLY } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { valid: boolean; findings: { code: string; elementId: string | null }[] };
    expect(body.valid).toBe(true);
    expect(body.findings.map((f) => [f.code, f.elementId])).toEqual([
      ["GATEWAY_WITHOUT_DEFAULT", "g"],
      ["DEAD_END", "t"],
      ["ORPHAN", "lonely"],
      ["DEAD_END", "lonely"],
      ["MISSING_DIAGRAM", null],
    ]);
    expect(await (await s.req("GET", "/api/a/definitions", { token: tok.ADMIN })).json()).toEqual(before);
    const clean = await s.req("POST", "/api/a/definitions/validate", {
      token: tok.MODELER,
      json: {
        xml: model('<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="e"/><endEvent id="e"/>', DI),
      },
    });
    expect(((await clean.json()) as { findings: unknown[] }).findings).toEqual([]);
    await expectError(
      await s.req("POST", "/api/a/definitions/validate", { token: tok.USER, json: { xml: SMELLY } }),
      403,
    );
    await expectError(
      await s.req("POST", "/api/a/definitions/validate", { token: tok.MODELER, json: { xml: "<not-bpmn" } }),
      400,
    );
  });
});
