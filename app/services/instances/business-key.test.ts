import { describe, expect, test } from "bun:test";
import { UnprocessableError } from "../errors";
import { DEFAULT_BUSINESS_KEY_TEMPLATE, resolveBusinessKey } from "./business-key";

const now = new Date("2026-03-07T09:05:03Z");

function refusal(fn: () => unknown): UnprocessableError {
  try {
    fn();
  } catch (e) {
    if (e instanceof UnprocessableError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("business key resolution", () => {
  test("a non-blank requested key wins over any template", () => {
    expect(resolveBusinessKey("  INV-7 ", "X-${missing}", {}, now)).toBe("INV-7");
  });

  test("a blank requested key falls through to the template", () => {
    expect(resolveBusinessKey("   ", "ORD-${customer}", { customer: "acme" }, now)).toBe("ORD-acme");
  });

  test("without a template the system default DOC-yyyyMMdd-random4 applies", () => {
    const key = resolveBusinessKey(undefined, null, {}, now);
    expect(DEFAULT_BUSINESS_KEY_TEMPLATE).toBe("DOC-${date:yyyyMMdd}-${random:4}");
    expect(key).toMatch(/^DOC-20260307-[A-Z2-9]{4}$/);
  });

  test("date patterns and random lengths are generators", () => {
    expect(resolveBusinessKey(null, "${date:yyyy/MM/dd HH:mm:ss}", {}, now)).toBe("2026/03/07 09:05:03");
    expect(resolveBusinessKey(null, "${random:10}", {}, now)).toMatch(/^[A-Z2-9]{10}$/);
  });

  test("a fallback is used when the variable is absent or blank, and may itself hold a placeholder", () => {
    expect(resolveBusinessKey(null, "${region:-EU}-${n}", { n: 5 }, now)).toBe("EU-5");
    expect(resolveBusinessKey(null, "${region:-EU}", { region: "  " }, now)).toBe("EU");
    expect(resolveBusinessKey(null, "${a:-${b:-none}}", { b: "B" }, now)).toBe("B");
    expect(resolveBusinessKey(null, "${a:-${b:-none}}", {}, now)).toBe("none");
    expect(resolveBusinessKey(null, "${a:-X-${date:yyyy}}", {}, now)).toBe("X-2026");
  });

  test("placeholders without value and without fallback refuse with 422 naming every missing variable", () => {
    const e = refusal(() => resolveBusinessKey(null, "${customer}-${order}-${known}", { known: 1 }, now));
    expect(e.code).toBe("UNPROCESSABLE");
    expect(e.fieldErrors?.map((f) => f.field)).toEqual(["customer", "order"]);
    expect(e.fieldErrors?.[0].message).toContain("required by the business key template");
  });

  test("a key that substitutes to separators only is refused", () => {
    const e = refusal(() => resolveBusinessKey(null, "${a:-}-${b:-}/", {}, now));
    expect(e.code).toBe("UNPROCESSABLE");
    expect(e.fieldErrors?.[0].field).toBe("businessKey");
  });
});
