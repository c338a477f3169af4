import { describe, expect, test } from "bun:test";
import { FeelFunction } from "feelin";
import { runFeel as run } from "./test-support";

// DMN 1.5 §10.3.2.3.1: FEEL numbers are decimal128 (34 digits, half-even); results leave as JavaScript numbers.

describe("FEEL decimal arithmetic", () => {
  test("decimal fractions add, subtract and multiply exactly", () => {
    expect(run("0.1 + 0.2")).toBe(0.3);
    expect(run("0.1 + 0.2 = 0.3")).toBe(true);
    expect(run("1.1 * 3")).toBe(3.3);
    expect(run("0.3 - 0.1")).toBe(0.2);
    expect(run("a * b", { a: 1.15, b: 100 })).toBe(115);
    expect(run("-(0.1 + 0.7) * 10")).toBe(-8);
  });

  test("division rounds to 34 digits and divides by zero to null", () => {
    expect(run("1 / 3 * 3")).toBe(1);
    expect(run("10 / 4")).toBe(2.5);
    expect(run("1 / 0")).toBeNull();
  });

  test("exponentiation, precedence and null operands follow FEEL", () => {
    expect(run("2 ** 10")).toBe(1024);
    expect(run("2 ** -1")).toBe(0.5);
    expect(run("1 + 2 * 3 ** 2")).toBe(19);
    expect(run("x + 1", { x: null })).toBeNull();
    expect(run("missing + 1")).toBeNull();
    expect(run("null = x - x", { x: 1 })).toBe(false);
    expect(run("x - 1 < null", { x: 1 })).toBeNull();
  });

  test("the numeric built-ins round decimals as the spec says", () => {
    expect(run("decimal(1/3, 2)")).toBe(0.33);
    expect(run("decimal(0.505, 2)")).toBe(0.5); // half-even
    expect(run("decimal(0.515, 2)")).toBe(0.52);
    expect(run("round half up(-5.5, 0)")).toBe(-6);
    expect(run("round half down(5.5, 0)")).toBe(5);
    expect(run("round up(5.5, -1)")).toBe(10);
    expect(run("floor(-1.05 * 10)")).toBe(-11);
    expect(run("ceiling(1.1 * 3, 1)")).toBe(3.3);
    expect(run("modulo(-12, 5)")).toBe(3);
    expect(run("modulo(12, -5)")).toBe(-3);
    expect(run("modulo(10.1, 4.5)")).toBe(1.1);
    expect(run("sqrt(16) + 1")).toBe(5);
    expect(run("sqrt(-1) + 1")).toBeNull();
    expect(run("abs(-0.1 - 0.2)")).toBe(0.3);
  });

  test("non-numeric operands keep FEEL's answer for their type", () => {
    expect(run('"a" + "b"')).toBe("ab");
    expect(run("x + y", { x: "a", y: "b" })).toBe("ab");
    expect(String(run('date("2024-01-31") + duration("P1D")'))).toBe("2024-02-01");
    expect(run("x + 1", { x: "a" })).toBeNull();
    expect(run("count([1, 2]) + 0.1")).toBe(2.1);
  });

  test("a variable named like a numeric built-in is called as the variable", () => {
    const twice = new FeelFunction((x: number) => x * 2, ["x"]);
    expect(run("abs(2) + 1", { abs: twice })).toBe(5);
    expect(run("abs(-2) + 1")).toBe(3);
  });
});

describe("FEEL durations with numbers, ranges as values, years and months", () => {
  const iso = (text: string) => String(run(text));

  test("a duration scales by a number, divides by a number or a duration, and negates", () => {
    expect(iso('duration("P1Y") * 2')).toBe("P2Y");
    expect(iso('2 * duration("P1Y1M")')).toBe("P2Y2M");
    expect(iso('duration("P1Y") / 2')).toBe("P6M");
    expect(iso('duration("PT1H") * 1.5')).toBe("PT1H30M");
    expect(iso('-duration("P1D")')).toBe("-P1D");
    expect(run('duration("PT1H") / duration("PT30M")')).toBe(2);
    expect(run('duration("P1Y") / duration("P1M")')).toBe(12);
    expect(run('duration("P1Y") / duration("P1D")')).toBeNull(); // kinds do not mix
    expect(run('duration("P1D") / 0')).toBeNull();
  });

  test("string() of a computed number gives its decimal digits", () => {
    expect(run("string(0.1 + 0.2)")).toBe("0.3");
    expect(run("string(1 / 3)")).toBe("0.3333333333333333333333333333333333");
    expect(run('string(1 + "a")')).toBeNull();
  });

  test("range() reads an interval literal from a string; unary forms, names, descending ranges and garbage give null", () => {
    expect(run('range("[1..10]") = [1..10]')).toBe(true);
    expect(run('5 in range("[1..10)")')).toBe(true);
    expect(run('10 in range("[1..10)")')).toBe(false);
    expect(run('range("(1..10]").start included')).toBe(false);
    // only interval literals: unary forms, non-literal endpoints and descending ranges are not ranges (TCK 1156)
    expect(run('range("<10")')).toBeNull();
    expect(run('range(">= 3")')).toBeNull();
    expect(run('range("[3..1]")')).toBeNull();
    expect(run('range("[date(x)..date(\\"2020-01-02\\")]")', { x: "2020-01-01" })).toBeNull();
    expect(run('range("[@\\"2020-01-01\\"..date(\\"2020-01-02\\")]").start', {})).not.toBeNull();
    expect(run('range("[a..b]")', { a: 1, b: 2 })).toBeNull();
    expect(run('range("hello")')).toBeNull();
    expect(run('before(range("[1..5]"), [6..10])')).toBe(true);
  });

  test("years and months duration counts whole months between two dates", () => {
    expect(iso('years and months duration(date("2011-12-22"), date("2013-08-24"))')).toBe("P1Y8M");
    expect(iso('years and months duration(date("2013-08-24"), date("2011-12-22"))')).toBe("-P1Y8M");
    expect(iso('years and months duration(date("2015-12-31"), date("2016-02-29"))')).toBe("P1M");
    expect(iso('years and months duration(date and time("2016-08-24T10:00:00"), date("2017-08-24"))')).toBe("P1Y");
    expect(run('years and months duration(date("2011-12-22"), 3)')).toBeNull();
  });
});
