import { expect, test } from "bun:test";
import { readFromAi } from "./agent-tools";

test("fromAi(...) is read in Camunda 8's FEEL form, a ${...} wrapper or bare; description and type are optional", () => {
  expect(readFromAi('=fromAi(toolCall.amount, "the amount", "number")')).toEqual({
    name: "amount",
    description: "the amount",
    type: "number",
  });
  expect(readFromAi('${fromAi(toolCall.note, "a \\"short\\" note")}')).toEqual({
    name: "note",
    description: 'a "short" note',
    type: "string",
  });
  expect(readFromAi("fromAi(toolCall.flag)")).toEqual({ name: "flag", description: "", type: "string" });
  expect(readFromAi('fromAi(toolCall.items, "the items", "array", {})')).toMatchObject({ type: "array" });
  // an unknown type is a string; anything else is an ordinary input mapping
  expect(readFromAi('fromAi(toolCall.x, "x", "money")')?.type).toBe("string");
  expect(readFromAi("${amount * 2}")).toBeNull();
  expect(readFromAi(undefined)).toBeNull();
});
