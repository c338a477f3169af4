import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

// DMN 1.5 §10.3.2.9.4 type conversions seen through the evaluate route: the JSON a caller gets.

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="coercion" name="Coercion" namespace="http://example.com/coercion">
  <itemDefinition name="tTags" isCollection="true"><typeRef>string</typeRef></itemDefinition>
  <inputData id="i_tag" name="tag"><variable name="tag" typeRef="string"/></inputData>
  <inputData id="i_day" name="day"><variable name="day" typeRef="date"/></inputData>
  <decision id="tags" name="Tags"><variable name="Tags" typeRef="tTags"/>
    <informationRequirement><requiredInput href="#i_tag"/></informationRequirement>
    <literalExpression><text>tag</text></literalExpression></decision>
  <decision id="starts" name="Starts"><variable name="Starts" typeRef="dateTime"/>
    <informationRequirement><requiredInput href="#i_day"/></informationRequirement>
    <literalExpression><text>day</text></literalExpression></decision>
  <decision id="label" name="Label"><variable name="Label" typeRef="string"/>
    <informationRequirement><requiredInput href="#i_tag"/></informationRequirement>
    <literalExpression><text>string length(tag)</text></literalExpression></decision>
</definitions>`;

let s: TestServer;
let user: Awaited<ReturnType<typeof userInTenant>>;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "dmn-coerce", sa);
  const modeler = await userInTenant(s, t, "MODELER", sa);
  user = await userInTenant(s, t, "USER", sa);
  const fd = new FormData();
  fd.append("file", new File([XML], "coercion.dmn", { type: "application/xml" }));
  const res = await s.req("POST", "/api/a/decisions", { token: modeler.token, body: fd });
  expect(res.status).toBe(201);
});
afterAll(() => s.close());

const evaluate = (key: string, variables: Record<string, unknown>) =>
  s.req("POST", `/api/a/decisions/${key}/evaluate`, { token: user.token, json: { variables } });

describe("decision results are converted to their variable's typeRef", () => {
  test("a single value for a collection type is answered as a one-item list", async () => {
    const res = await evaluate("tags", { tag: "urgent" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: ["urgent"], matchedRules: [] });
  });

  test("a date for a date and time is midnight UTC", async () => {
    const res = await evaluate("starts", { day: "2024-03-01" });
    expect(await res.json()).toEqual({ result: "2024-03-01T00:00:00Z", matchedRules: [] });
  });

  test("a result that does not conform is null (200), not an error", async () => {
    const res = await evaluate("label", { tag: "urgent" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: null, matchedRules: [] });
  });

  test("a caller's input that does not conform is still a 422 naming the input", async () => {
    await expectError(await evaluate("tags", { tag: 42 }), 422, /'tag' expects string, got 42/);
    await expectError(await evaluate("starts", { day: "not a day" }), 422, /'day' expects date/);
  });
});
