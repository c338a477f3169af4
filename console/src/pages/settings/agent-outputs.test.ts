import { describe, expect, test } from "bun:test";
import { formatOutputs, parseOutputs } from "./agent-outputs";

describe("agent output variable lines", () => {
  test("read back what is written, descriptions kept, blank lines skipped", () => {
    const vars = [
      { name: "total", type: "number", description: "sum in euros" },
      { name: "ok", type: "boolean" },
    ];
    expect(parseOutputs(`${formatOutputs(vars)}\n\n`)).toEqual({ vars });
  });
  test("a line without a known type is refused by its number", () => {
    expect(parseOutputs("a: string\nb: money")).toEqual({ error: expect.stringContaining("Line 2") });
    expect(parseOutputs("no type here")).toEqual({ error: expect.stringContaining("Line 1") });
  });
});
