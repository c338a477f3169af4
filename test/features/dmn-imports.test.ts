import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

const NS = "https://www.omg.org/spec/DMN/20191111/MODEL/";

/** The library: a decision and an item definition, in namespace http://example.com/lib. */
const LIB = (factor: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="${NS}" id="lib" name="Library" namespace="http://example.com/lib">
  <itemDefinition name="tAmount"><typeRef>number</typeRef><allowedValues><text>[0..1000]</text></allowedValues></itemDefinition>
  <inputData id="amountIn" name="amount"><variable name="amount" typeRef="number"/></inputData>
  <decision id="baseRate" name="baseRate">
    <variable name="baseRate" typeRef="number"/>
    <informationRequirement id="ir1"><requiredInput href="#amountIn"/></informationRequirement>
    <literalExpression><text>amount * ${factor}</text></literalExpression>
  </decision>
</definitions>`;

/** The importer: requires the library's decision by namespace and types its input with the library's item definition. */
const APP = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="${NS}" id="app" name="App" namespace="http://example.com/app">
  <import namespace="http://example.com/lib" name="lib" importType="${NS}"/>
  <inputData id="amountApp" name="amount"><variable name="amount" typeRef="lib.tAmount"/></inputData>
  <decision id="total" name="total">
    <variable name="total" typeRef="number"/>
    <informationRequirement id="ir2"><requiredDecision href="http://example.com/lib#baseRate"/></informationRequirement>
    <informationRequirement id="ir3"><requiredInput href="#amountApp"/></informationRequirement>
    <literalExpression><text>lib.baseRate + amount</text></literalExpression>
  </decision>
</definitions>`;

let s: TestServer;
let admin: Awaited<ReturnType<typeof userInTenant>>;
let otherAdmin: Awaited<ReturnType<typeof userInTenant>>;

const deploy = (token: string, xml: string, name: string) => {
  const fd = new FormData();
  fd.append("file", new File([xml], name));
  return s.req("POST", "/api/a/decisions", { token, body: fd });
};
const evaluate = (token: string, key: string, variables: Record<string, unknown>) =>
  s.req("POST", `/api/a/decisions/${key}/evaluate`, { token, json: { variables } });

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  admin = await userInTenant(s, await createTenant(s, "dmn-imp", sa), "ADMIN", sa);
  otherAdmin = await userInTenant(s, await createTenant(s, "dmn-imp-other", sa), "ADMIN", sa);
});
afterAll(() => s.close());

describe("DMN models importing models of the tenant (DMN 1.5 §6.3.3)", () => {
  test("an import whose namespace no model of the tenant has is refused at deploy with 400 naming it", async () => {
    await expectError(await deploy(admin.token, APP, "app.dmn"), 400, "http://example.com/lib");
  });

  test("a decision requires an imported decision by namespace#id and reads it as import.name; imported item definitions type its inputs", async () => {
    expect((await deploy(admin.token, LIB("0.1"), "lib.dmn")).status).toBe(201);
    expect((await deploy(admin.token, APP, "app.dmn")).status).toBe(201);
    const ok = await evaluate(admin.token, "total", { amount: 100 });
    expect(ok.status).toBe(200);
    expect((await ok.json()).result).toBe(110);
    // lib.tAmount allows [0..1000]
    await expectError(await evaluate(admin.token, "total", { amount: 5000 }), 422, "[0..1000]");
  });

  test("a new version of the imported model is used at the next evaluation", async () => {
    expect((await deploy(admin.token, LIB("0.5"), "lib.dmn")).status).toBe(201);
    expect((await (await evaluate(admin.token, "total", { amount: 100 })).json()).result).toBe(150);
  });

  test("another tenant's models are never imported", async () => {
    await expectError(await deploy(otherAdmin.token, APP, "app.dmn"), 400, "http://example.com/lib");
  });

  test("models importing each other end in a clear refusal, never a loop", async () => {
    const model = (own: string, imports?: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="${NS}" id="${own}" name="${own}" namespace="http://example.com/${own}">
  ${imports ? `<import namespace="http://example.com/${imports}" name="${imports}" importType="${NS}"/>` : ""}
  <decision id="d_${own}" name="d_${own}"><literalExpression><text>1</text></literalExpression></decision>
</definitions>`;
    expect((await deploy(admin.token, model("ca"), "a.dmn")).status).toBe(201);
    expect((await deploy(admin.token, model("cb", "ca"), "b.dmn")).status).toBe(201);
    // a's second version imports b, which imports a: a's own file is not looked at again
    expect((await deploy(admin.token, model("ca", "cb"), "a2.dmn")).status).toBe(201);
    const res = await evaluate(admin.token, "d_ca", {});
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain("http://example.com/ca");
  });
});
