import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { startTestServer, type TestServer } from "../harness/server";

// Issue 28, parts 2-4: tenants' regular expressions run in linear time, built-ins are bounded in size, and expression
// depth and length and model size are refused at deploy, validate and AI validation with 400 naming the element and
// the limit, never a stack overflow or a 500 at run time. Each refusal writes nothing, and another tenant is served.

let s: TestServer;
const tok: Record<string, string> = {};

const bpmn = (condition: string, id = "lim") => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="${id}" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="g"/>
    <exclusiveGateway id="g" default="no"/>
    <sequenceFlow id="yes" sourceRef="g" targetRef="t"><conditionExpression>${condition}</conditionExpression></sequenceFlow>
    <sequenceFlow id="no" sourceRef="g" targetRef="t"/>
    <userTask id="t"/><sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

function manyTasks(n: number): string {
  let body = '<startEvent id="s"/>';
  let prev = "s";
  for (let i = 0; i < n; i++) {
    body += `<task id="t${i}" name="Task ${i}"/><sequenceFlow id="f${i}" sourceRef="${prev}" targetRef="t${i}"/>`;
    prev = `t${i}`;
  }
  return `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t"><process id="huge" isExecutable="true">${body}<endEvent id="e"/><sequenceFlow id="fe" sourceRef="${prev}" targetRef="e"/></process></definitions>`;
}

const dmn = (key: string, feel: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="${key}-defs" name="L" namespace="http://example.com/dmn">
  <decision id="${key}" name="${key}">
    <variable name="${key}"/>
    <literalExpression id="${key}-le"><text>${feel}</text></literalExpression>
  </decision>
</definitions>`;

const file = (text: string, name: string) => {
  const fd = new FormData();
  fd.append("file", new File([text], name));
  return fd;
};
const deploy = (xml: string, name = "m.bpmn") =>
  s.req("POST", "/api/a/definitions/deploy", { token: tok.MODELER, body: file(xml, name) });
const deployDmn = (xml: string) => s.req("POST", "/api/a/decisions", { token: tok.MODELER, body: file(xml, "d.dmn") });
const keys = async () =>
  ((await (await s.req("GET", "/api/a/definitions", { token: tok.MODELER })).json()) as { key: string }[]).map(
    (d) => d.key,
  );

/** Another tenant is served, and /health answers, once the heavy request is answered. */
async function othersServed() {
  const [health, other] = await Promise.all([
    s.req("GET", "/health"),
    s.req("GET", "/api/a/definitions", { token: tok.OTHER }),
  ]);
  expect(health.status).toBe(200);
  expect(other.status).toBe(200);
}

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "limits-28", sa);
  tok.MODELER = (await userInTenant(s, t, "MODELER", sa)).token;
  tok.USER = (await userInTenant(s, t, "USER", sa)).token;
  const o = await createTenant(s, "limits-28-other", sa);
  tok.OTHER = (await userInTenant(s, o, "MODELER", sa)).token;
});
afterAll(() => s.close());

describe("expression depth and length are refused at deploy, validate and AI validation", () => {
  const terms = (n: number, sep: string) => Array(n).fill("x").join(sep);
  const cases: [string, string, RegExp][] = [
    ["a JUEL condition of 100,000 terms", `\${${terms(100_000, " || ")}}`, /limit of 5,000 characters/],
    ["100,000 nested parentheses", `\${${"(".repeat(100_000)}x${")".repeat(100_000)}}`, /limit of 5,000 characters/],
    ["50,000 nested ternaries", `\${${"x ? 1 : ".repeat(50_000)}2}`, /limit of 5,000 characters/],
    ["65 nested parentheses (short)", `\${${"(".repeat(65)}x${")".repeat(65)}}`, /limit of 64 levels/],
    ["65 nested JUEL negations", `\${${"!".repeat(65)}x}`, /limit of 64 levels/],
    ["a FEEL condition nested 65 deep", `=${"[".repeat(65)}1${"]".repeat(65)} != null`, /limit of 64 levels/],
  ];
  for (const [label, condition, limit] of cases) {
    test(`${label}: 400 naming the flow and the limit, nothing deployed`, async () => {
      const xml = bpmn(condition);
      const body = await expectError(await deploy(xml), 400, limit);
      expect(String(body.message)).toContain("flow 'yes'");
      expect(JSON.stringify(body).length).toBeLessThan(4096); // the expression is not echoed
      expect(await keys()).not.toContain("lim");
      await expectError(
        await s.req("POST", "/api/a/definitions/validate", { token: tok.MODELER, json: { xml } }),
        400,
        limit,
      );
      await expectError(
        await s.req("POST", "/api/a/ai-validation/bpmn", { token: tok.MODELER, json: { xml } }),
        400,
        limit,
      );
      await othersServed();
    });
  }

  test("a condition within the limits (64 levels, 900 terms) deploys and starts", async () => {
    const deep = `\${${"(".repeat(63)}x${")".repeat(63)} || ${terms(900, " || ")}}`;
    expect((await deploy(bpmn(deep, "fine"))).status).toBe(200);
    const r = await s.req("POST", "/api/a/instances", {
      token: tok.MODELER,
      json: { definitionKey: "fine", variables: { x: true } },
    });
    expect(r.status).toBe(201);
  });

  test("a DMN literal expression of 20,000 nested parentheses: 400 naming the element and the limit", async () => {
    const body = await expectError(
      await deployDmn(dmn("deep", `${"(".repeat(20_000)}1${")".repeat(20_000)}`)),
      400,
      /limit of (64 levels|5,000 characters)/,
    );
    expect(String(body.message)).toContain("deep");
    expect((await s.req("GET", "/api/a/decisions/deep", { token: tok.MODELER })).status).toBe(404);
    await othersServed();
  });
});

describe("model size is refused before parsing", () => {
  test("a BPMN of 60,000 tasks (4.2 MB): 400 on deploy, validate and AI validation, nothing deployed", async () => {
    const xml = manyTasks(60_000);
    expect(xml.length).toBeGreaterThan(4_000_000);
    await expectError(await deploy(xml), 400, /limit of 4,194,304 bytes|10,000 XML elements/);
    await expectError(
      await s.req("POST", "/api/a/definitions/validate", { token: tok.MODELER, json: { xml } }),
      400,
      /limit/,
    );
    await expectError(await s.req("POST", "/api/a/ai-validation/bpmn", { token: tok.MODELER, json: { xml } }), 400);
    expect(await keys()).not.toContain("huge");
    await othersServed();
  });

  test("a BPMN of 6,000 tasks (under 4 MiB, over 10,000 elements) is refused by its element count", async () => {
    await expectError(await deploy(manyTasks(6_000)), 400, /more than 10,000 XML elements/);
    expect(await keys()).not.toContain("huge");
  });

  test("a BPMN of 1,000 tasks deploys", async () => {
    expect((await deploy(manyTasks(1_000))).status).toBe(200);
  });

  test("a DMN and a CMMN over the element limit: 400 naming the limit", async () => {
    const cells = Array.from({ length: 10_001 }, (_, i) => `<x${i}/>`).join("");
    await expectError(
      await deployDmn(dmn("big", "1").replace("</definitions>", `${cells}</definitions>`)),
      400,
      /DMN model has more than 10,000/,
    );
    const cmmn = `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" targetNamespace="t">${cells}</definitions>`;
    await expectError(await deploy(cmmn, "c.cmmn"), 400, /CMMN model has more than 10,000/);
  });
});

describe("a large model is parsed off the event loop with the same answers", () => {
  // 2,000 unconnected tasks: about 90 KB, over the size from which parsing runs in a worker (OFF_THREAD_CHARS).
  const padded = (xml: string) =>
    xml.replace(
      '<endEvent id="e"/>',
      `<endEvent id="e"/>${Array.from({ length: 2_000 }, (_, i) => `<task id="pad${i}" name="Padding ${i}"/>`).join("")}`,
    );

  test("an expression over a limit is 400 on deploy and validate, a refused model a 400 and a finding", async () => {
    const deep = padded(bpmn(`\${${"(".repeat(65)}x${")".repeat(65)}}`, "padded"));
    expect(deep.length).toBeGreaterThan(64 * 1024);
    await expectError(await deploy(deep), 400, /flow 'yes'.*limit of 64 levels/);
    await expectError(
      await s.req("POST", "/api/a/definitions/validate", { token: tok.MODELER, json: { xml: deep } }),
      400,
      /limit of 64 levels/,
    );
    const refused = padded(bpmn("${x}", "padded")).replace('default="no"', 'default="f1"');
    await expectError(await deploy(refused), 400, /Default flow 'f1'/);
    const v = await s.req("POST", "/api/a/definitions/validate", { token: tok.MODELER, json: { xml: refused } });
    expect(v.status).toBe(200);
    const body = (await v.json()) as { valid: boolean; findings: { code: string; message: string }[] };
    expect(body.valid).toBe(false);
    expect(body.findings.find((f) => f.code === "NOT_DEPLOYABLE")?.message).toContain("Default flow 'f1'");
    expect(await keys()).not.toContain("padded");
  });

  test("a valid large model deploys and starts", async () => {
    expect((await deploy(padded(bpmn("${x}", "padded")))).status).toBe(200);
    const r = await s.req("POST", "/api/a/instances", {
      token: tok.MODELER,
      json: { definitionKey: "padded", variables: { x: true } },
    });
    expect(r.status).toBe(201);
    await othersServed();
  });
});

describe("a large CMMN is parsed off the event loop with the same answers", () => {
  // 1,200 human tasks: about 100 KB, over the size from which parsing runs in a worker.
  const caseModel = (id: string, extra = "") => {
    const items = Array.from(
      { length: 1_200 },
      (_, i) => `<planItem id="pi${i}" definitionRef="h${i}"/><humanTask id="h${i}" name="Step ${i}"/>`,
    ).join("");
    return `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" targetNamespace="t"><case id="${id}"><casePlanModel id="plan">${items}${extra}</casePlanModel></case></definitions>`;
  };

  test("a valid large case deploys; one with a refused rule is a 400 naming it, as in-thread", async () => {
    expect(caseModel("bigcase").length).toBeGreaterThan(64 * 1024);
    expect((await deploy(caseModel("bigcase"), "c.cmmn")).status).toBe(200);
    const refused = caseModel(
      "badcase",
      '<planItem id="pj" definitionRef="hj"><itemControl><requiredRule><condition language="groovy">x</condition></requiredRule></itemControl></planItem><humanTask id="hj"/>',
    );
    await expectError(await deploy(refused, "c.cmmn"), 400, /'groovy' conditions are not supported/);
    expect(await keys()).not.toContain("badcase");
    await othersServed();
  });
});

describe("BPMN conditions with regular expressions", () => {
  test("a FEEL condition with a pattern that backtracks in JavaScript starts at once; a back-reference is refused", async () => {
    expect((await deploy(bpmn('=matches(x, "^(a+)+$")', "redosflow"))).status).toBe(200);
    const start = (x: string) =>
      s.req("POST", "/api/a/instances", { token: tok.MODELER, json: { definitionKey: "redosflow", variables: { x } } });
    expect((await start(`${"a".repeat(64)}!`)).status).toBe(201);
    await othersServed();
    // A literal pattern RE2 cannot run refuses the deploy, naming the flow; one from a variable refuses the start.
    await expectError(
      await deploy(bpmn('=matches(x, "(a+)\\1")', "backrefflow")),
      400,
      /flow 'yes'.*linear-time engine/,
    );
    expect(await keys()).not.toContain("backrefflow");
    expect((await deploy(bpmn("=matches(x, p)", "patternflow"))).status).toBe(200);
    const r = await s.req("POST", "/api/a/instances", {
      token: tok.MODELER,
      json: { definitionKey: "patternflow", variables: { x: "aa", p: "(a+)\\1" } },
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(await r.text()).toContain("linear-time engine");
  });
});

describe("FEEL regular expressions and built-ins through decision evaluation", () => {
  const evaluate = (key: string, variables: Record<string, unknown>) =>
    s.req("POST", `/api/a/decisions/${key}/evaluate`, { token: tok.USER, json: { variables } });

  beforeAll(async () => {
    expect((await deployDmn(dmn("redos", 'matches(x, "^(a+)+$")'))).status).toBe(201);
    expect((await deployDmn(dmn("backref", "matches(x, p)"))).status).toBe(201);
    expect((await deployDmn(dmn("joined", "string length(string join(for i in 1..1000 return x))"))).status).toBe(201);
  });

  test("a pattern that backtracks exponentially in JavaScript answers at once on RE2 (a plain USER evaluates)", async () => {
    const r = await evaluate("redos", { x: `${"a".repeat(64)}!` });
    expect(r.status).toBe(200);
    expect(JSON.stringify(await r.json())).toContain("false");
    await othersServed();
  });

  test("a back-reference RE2 cannot express: 400 at deploy as a literal, 422 at evaluation from a variable", async () => {
    const body = await expectError(
      await deployDmn(dmn("literalref", 'matches(x, "(a+)\\1")')),
      400,
      /linear-time engine/,
    );
    expect(String(body.message)).toContain("literalref");
    expect((await s.req("GET", "/api/a/decisions/literalref", { token: tok.MODELER })).status).toBe(404);
    await expectError(await evaluate("backref", { x: "aa", p: "(a+)\\1" }), 422, /linear-time engine/);
    await expectError(await evaluate("backref", { x: "ab", p: "a(?=b)" }), 422, /lookaround is not supported/);
  });

  test("string join of 1000 copies of a 300 KB string: 422 naming the string size limit, not a stall", async () => {
    await expectError(await evaluate("joined", { x: "x".repeat(300_000) }), 422, /10,485,760 characters/);
    await othersServed();
    const ok = await evaluate("joined", { x: "xyz" });
    expect(ok.status).toBe(200);
    expect(JSON.stringify(await ok.json())).toContain("3000");
  });
});
