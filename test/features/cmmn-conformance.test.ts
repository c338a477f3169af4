import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";

/** Two decisions: a COLLECT table with two outputs, and a UNIQUE table with one named output. */
const DMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="rates-defs" name="Rates" namespace="http://example.com/rates">
  <decision id="rates" name="Rates">
    <decisionTable id="rt" hitPolicy="COLLECT">
      <input id="i1" label="amount"><inputExpression id="ie1" typeRef="number"><text>amount</text></inputExpression></input>
      <output id="o1" name="rate" typeRef="number"/><output id="o2" name="label" typeRef="string"/>
      <rule id="r1"><inputEntry id="r1i"><text>&gt; 0</text></inputEntry><outputEntry id="r1a"><text>1</text></outputEntry><outputEntry id="r1b"><text>"small"</text></outputEntry></rule>
      <rule id="r2"><inputEntry id="r2i"><text>&gt; 100</text></inputEntry><outputEntry id="r2a"><text>2</text></outputEntry><outputEntry id="r2b"><text>"big"</text></outputEntry></rule>
    </decisionTable>
  </decision>
  <decision id="tier" name="Tier">
    <decisionTable id="tt" hitPolicy="UNIQUE">
      <input id="ti" label="amount"><inputExpression id="tie" typeRef="number"><text>amount</text></inputExpression></input>
      <output id="to" name="tierName" typeRef="string"/>
      <rule id="t1"><inputEntry id="t1i"><text>&gt; 100</text></inputEntry><outputEntry id="t1o"><text>"gold"</text></outputEntry></rule>
      <rule id="t2"><inputEntry id="t2i"><text>&lt;= 100</text></inputEntry><outputEntry id="t2o"><text>"basic"</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`;

const caseFile = (id: string, body: string, extraNs = "") => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/cmmn" xmlns:flowable="http://flowable.org/cmmn" ${extraNs} targetNamespace="t">
  <case id="${id}"><casePlanModel id="${id}Plan">
    <planItem id="piKeep" name="Keep" definitionRef="keep"/>
    ${body}
    <humanTask id="keep" name="Keep"/>
  </casePlanModel></case>
</definitions>`;

/** A decision task of `decision` writing through the given attributes. */
const decisionCase = (id: string, decision: string, attrs: string) =>
  caseFile(id, `<planItem id="piD" definitionRef="d"/><decisionTask id="d" decisionRef="${decision}" ${attrs}/>`);

let s: TestServer;
let admin: Awaited<ReturnType<typeof userInTenant>>;

async function deploy(xml: string, name = "case.cmmn") {
  const fd = new FormData();
  fd.append("file", new File([xml], name, { type: "application/xml" }));
  return s.req("POST", "/api/a/definitions/deploy", { token: admin.token, body: fd });
}

async function variablesOf(definitionKey: string, variables: Record<string, unknown>) {
  const c = await startProcess(s, admin.token, { definitionKey, variables });
  const detail = await (await s.req("GET", `/api/a/instances/${c.id}`, { token: admin.token })).json();
  return detail.variables as Record<string, unknown>;
}

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  admin = await userInTenant(s, await createTenant(s, "cmmn-conf", sa), "ADMIN", sa);
  const fd = new FormData();
  fd.append("file", new File([DMN], "rates.dmn"));
  expect((await s.req("POST", "/api/a/decisions", { token: admin.token, body: fd })).status).toBe(201);
});
afterAll(() => s.close());

describe("CMMN decision tasks: result variable and result mapping (Camunda and Flowable dialects)", () => {
  test.each([
    ["camunda", "singleEntry", "tier", { amount: 500 }, "gold"],
    ["flowable", "singleResult", "tier", { amount: 5 }, { tierName: "basic" }],
    ["camunda", "collectEntries", "tier", { amount: 5 }, ["basic"]],
    [
      "flowable",
      "resultList",
      "rates",
      { amount: 500 },
      [
        { rate: 1, label: "small" },
        { rate: 2, label: "big" },
      ],
    ],
  ] as const)("%s:mapDecisionResult=%s", async (prefix, mapping, decision, input, expected) => {
    const key = `map-${mapping}`;
    await deployBpmn(
      s,
      admin.token,
      decisionCase(key, decision, `${prefix}:resultVariable="out" ${prefix}:mapDecisionResult="${mapping}"`),
      `${key}.cmmn`,
    );
    const vars = await variablesOf(key, input);
    expect(vars.out).toEqual(expected);
    expect(vars).not.toHaveProperty("tierName");
  });

  test("a result variable without a mapping takes the result list (Camunda's default)", async () => {
    await deployBpmn(s, admin.token, decisionCase("rv-only", "tier", `camunda:resultVariable="tiers"`), "rv.cmmn");
    expect((await variablesOf("rv-only", { amount: 500 })).tiers).toEqual([{ tierName: "gold" }]);
  });

  test("without a result variable, Flowable's default: one rule's outputs by name, several rules as a list under the decision key", async () => {
    await deployBpmn(s, admin.token, decisionCase("fl-one", "tier", ""), "fl1.cmmn");
    expect(await variablesOf("fl-one", { amount: 500 })).toEqual({ amount: 500, tierName: "gold" });
    await deployBpmn(s, admin.token, decisionCase("fl-many", "rates", ""), "fl2.cmmn");
    expect(await variablesOf("fl-many", { amount: 500 })).toEqual({
      amount: 500,
      rates: [
        { rate: 1, label: "small" },
        { rate: 2, label: "big" },
      ],
    });
  });

  test("a result the mapping cannot take (two rules for singleResult) refuses the start with 422 naming the mapping; nothing is left", async () => {
    await deployBpmn(
      s,
      admin.token,
      decisionCase("bad-map", "rates", `camunda:resultVariable="r" camunda:mapDecisionResult="singleResult"`),
      "bad.cmmn",
    );
    const cases = async () =>
      (await (await s.req("GET", "/api/a/instances?type=CMMN", { token: admin.token })).json()).totalElements;
    const before = await cases();
    expect(before).toBeGreaterThan(0);
    const res = await s.req("POST", "/api/a/instances", {
      token: admin.token,
      json: { definitionKey: "bad-map", variables: { amount: 500 } },
    });
    expect(res.status).toBe(422);
    expect((await res.json()).message).toContain("singleResult");
    expect(await cases()).toBe(before);
  });

  test("an unknown mapping, or a mapping without a result variable, is refused at deploy with 400", async () => {
    const unknown = await deploy(
      decisionCase("u1", "tier", `camunda:resultVariable="x" camunda:mapDecisionResult="all"`),
    );
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toContain("mapDecisionResult 'all' is not one of singleEntry");
    const noVar = await deploy(decisionCase("u2", "tier", `camunda:mapDecisionResult="singleEntry"`));
    expect(noVar.status).toBe(400);
    expect((await noVar.json()).message).toContain("needs a resultVariable");
  });
});

describe("CMMN deploy: what is read, warned about or refused", () => {
  test("a decision task without a decision deploys with a warning and runs as a plain task", async () => {
    const res = await deploy(
      caseFile("nodec", `<planItem id="piD" name="Draft" definitionRef="d"/><decisionTask id="d" isBlocking="false"/>`),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.warnings).toEqual([expect.stringContaining("Decision task 'd' names no decision")]);
    const c = await startProcess(s, admin.token, { definitionKey: "nodec" });
    const items = await (
      await s.req("GET", `/api/a/instances/${c.id}/plan-items?includeEnded=true`, { token: admin.token })
    ).json();
    expect(items.find((i: { elementId: string }) => i.elementId === "piD").state).toBe("COMPLETED");
  });

  test("a case file item on-part deploys with a warning; its sentry never fires (there is no case file)", async () => {
    const res = await deploy(
      caseFile(
        "cfi",
        `<planItem id="piW" name="Waits" definitionRef="w"><entryCriterion id="e1" sentryRef="s1"/></planItem>
         <sentry id="s1"><caseFileItemOnPart id="op1" sourceRef="file1"><standardEvent>create</standardEvent></caseFileItemOnPart></sentry>
         <humanTask id="w" name="Waits"/>`,
      )
        .replace(
          `<case id="cfi">`,
          `<case id="cfi"><caseFileModel id="cfm"><caseFileItem id="file1" name="File" definitionRef="fd1"/></caseFileModel>`,
        )
        .replace(`targetNamespace="t">`, `targetNamespace="t"><caseFileItemDefinition id="fd1" name="Document"/>`),
    );
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.warnings).toEqual([expect.stringContaining("Sentry 's1': case file item on-parts are not supported")]);
    const c = await startProcess(s, admin.token, { definitionKey: "cfi" });
    const items = await (await s.req("GET", `/api/a/instances/${c.id}/plan-items`, { token: admin.token })).json();
    expect(Object.fromEntries(items.map((i: { elementId: string; state: string }) => [i.elementId, i.state]))).toEqual({
      piKeep: "ACTIVE",
      piW: "AVAILABLE",
    });
  });

  test("a CMMN 1.0 file is read as 1.1: criteria named by entryCriteriaRefs and exitCriteriaRefs hold", async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/CMMN/20131201/MODEL" targetNamespace="t" id="d10">
  <case id="c10"><casePlanModel id="pm10" exitCriteriaRefs="stopSentry">
    <planItem id="piA" definitionRef="A"/>
    <planItem id="piB" definitionRef="B" entryCriteriaRefs="afterA"/>
    <planItem id="piS" definitionRef="S"/>
    <sentry id="afterA"><planItemOnPart sourceRef="piA"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
    <sentry id="stopSentry"><planItemOnPart sourceRef="piS"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
    <humanTask id="A" name="A"/><humanTask id="B" name="B"/><humanTask id="S" name="Stop"/>
  </casePlanModel></case>
</definitions>`;
    const res = await deploy(xml, "old.cmmn");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { warnings: string[] }).warnings.join()).toContain("read as CMMN 1.1");
    const c = await startProcess(s, admin.token, { definitionKey: "c10" });
    const states = async () =>
      Object.fromEntries(
        (
          (await (await s.req("GET", `/api/a/instances/${c.id}/plan-items`, { token: admin.token })).json()) as {
            elementId: string;
            state: string;
          }[]
        ).map((i) => [i.elementId, i.state]),
      );
    expect(await states()).toMatchObject({ piA: "ACTIVE", piB: "AVAILABLE", piS: "ACTIVE" });
    const complete = async (name: string) => {
      const tasks = await (await s.req("GET", `/api/a/tasks?instanceId=${c.id}`, { token: admin.token })).json();
      const t = tasks.find((x: { name: string }) => x.name === name);
      expect((await s.req("POST", `/api/a/tasks/${t.id}/complete`, { token: admin.token, json: {} })).status).toBe(200);
    };
    await complete("A");
    expect(await states()).toMatchObject({ piB: "ACTIVE", piS: "ACTIVE" });
    // The plan model's exit criterion (exitCriteriaRefs) ends the case when Stop completes.
    await complete("Stop");
    const detail = await (await s.req("GET", `/api/a/instances/${c.id}`, { token: admin.token })).json();
    expect(detail.state).toBe("TERMINATED");
  });

  test("a case task without caseRef deploys with a warning and fails when it starts (422, nothing written)", async () => {
    const res = await deploy(
      caseFile(
        "noref",
        `<planItem id="piC" definitionRef="ct"><entryCriterion sentryRef="afterKeep"/></planItem>
         <sentry id="afterKeep"><planItemOnPart sourceRef="piKeep"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
         <caseTask id="ct" name="Child"/>`,
      ),
      "noref.cmmn",
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { warnings: string[] }).warnings.join()).toContain("Case task 'ct' names no case");
    const c = await startProcess(s, admin.token, { definitionKey: "noref" });
    const tasks = await (await s.req("GET", `/api/a/tasks?instanceId=${c.id}`, { token: admin.token })).json();
    const keep = tasks.find((t: { name: string }) => t.name === "Keep");
    const done = await s.req("POST", `/api/a/tasks/${keep.id}/complete`, { token: admin.token, json: {} });
    expect(done.status).toBe(422);
    expect((await done.json()).message).toContain("Case task 'ct' (plan item 'piC') names no case (caseRef)");
    // The completion rolled back: Keep is still open.
    const after = await (await s.req("GET", `/api/a/tasks?instanceId=${c.id}`, { token: admin.token })).json();
    expect(after.map((t: { name: string }) => t.name)).toEqual(["Keep"]);
  });

  test("a repeatable milestone (Camunda's RepetitionRuleTest model): each satisfied entry creates a new instance", async () => {
    await deployBpmn(
      s,
      admin.token,
      caseFile(
        "rep-ms",
        `<planItem id="piT" name="Step" definitionRef="t">
           <itemControl><repetitionRule><condition>\${repetitionCounter &lt; 2}</condition></repetitionRule></itemControl>
         </planItem>
         <planItem id="piM" name="Step done" definitionRef="m"><entryCriterion sentryRef="s"/></planItem>
         <sentry id="s"><planItemOnPart sourceRef="piT"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
         <humanTask id="t" name="Step"/>
         <milestone id="m"><defaultControl><repetitionRule><condition>\${true}</condition></repetitionRule></defaultControl></milestone>`,
      ),
      "rep.cmmn",
    );
    const c = await startProcess(s, admin.token, { definitionKey: "rep-ms" });
    for (let i = 0; i < 2; i++) {
      const tasks = await (await s.req("GET", `/api/a/tasks?instanceId=${c.id}`, { token: admin.token })).json();
      const step = tasks.find((t: { name: string }) => t.name === "Step");
      expect((await s.req("POST", `/api/a/tasks/${step.id}/complete`, { token: admin.token, json: {} })).status).toBe(
        200,
      );
    }
    const reached = await (await s.req("GET", `/api/a/instances/${c.id}/milestones`, { token: admin.token })).json();
    expect(reached.map((m: { elementId: string }) => m.elementId)).toEqual(["piM", "piM"]);
    const items = await (await s.req("GET", `/api/a/instances/${c.id}/plan-items`, { token: admin.token })).json();
    expect(
      items.filter((i: { elementId: string }) => i.elementId === "piM").map((i: { state: string }) => i.state),
    ).toEqual(["WAITING_FOR_REPETITION"]);
  });
});
