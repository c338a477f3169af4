import { expect, test } from "bun:test";
import { formatToolParam, isParamName, parseToolParam } from "./tool-param";

test("a tool parameter written by the panel reads back the same, quotes included, backslashes left out", () => {
  const p = { name: "orderId", description: 'the order\'s "id"\\ number', type: "integer" };
  const value = formatToolParam(p);
  expect(value).toBe('fromAi(toolCall.orderId, "the order\'s \\"id\\" number", "integer")');
  expect(parseToolParam(value)).toEqual({ ref: "orderId", description: 'the order\'s "id" number', type: "integer" });
});

test("Camunda 8's notations are parameters too; other values are ordinary mappings", () => {
  expect(parseToolParam('=fromAi(toolCall.amount, "the amount", "number")')).toEqual({
    ref: "amount",
    description: "the amount",
    type: "number",
  });
  expect(parseToolParam("fromAi(toolCall.x)")).toEqual({ ref: "x", description: "", type: "string" });
  expect(parseToolParam('fromAi(toolCall.x, "d", "date")')?.type).toBe("string");
  expect(parseToolParam("${amount * 2}")).toBeNull();
  expect(parseToolParam(undefined)).toBeNull();
  expect(isParamName("order_id2")).toBe(true);
  expect(isParamName("2x")).toBe(false);
  expect(isParamName("a-b")).toBe(false);
});
