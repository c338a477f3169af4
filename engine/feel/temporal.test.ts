import { describe, expect, test } from "bun:test";
import { compileUnaryTests } from "./unary-tests";
import { runFeel as run } from "./test-support";
import { parseFeelDate, parseFeelDateTime } from "./temporal-parse";

const str = (text: string, vars: Record<string, unknown> = {}) => String(run(text, vars));

describe("FEEL dates over the whole year range", () => {
  test("signed and five-digit years parse, print as FEEL writes them and compute", () => {
    expect(str('date("-2017-12-31")')).toBe("-2017-12-31");
    expect(str('string(date("99999-12-31"))')).toBe("99999-12-31");
    expect(str('@"-2021-01-01T10:10:10+11:00" + @"P1M"')).toBe("-2021-02-01T10:10:10+11:00");
    expect(str("date(x)", { x: "-0001-01-01" })).toBe("-0001-01-01");
    expect(run('date("-2017-12-31") < date("2017-12-31")')).toBe(true);
    expect(parseFeelDate("02017-01-01")).toBeNull(); // a long year has no leading zero
    expect(parseFeelDate("-2017-02-30")).toBeNull();
    expect(parseFeelDateTime("99999-12-31T23:59:59Z")?.toString()).toBe("99999-12-31T23:59:59Z");
  });

  test("24:00:00 is the next day's midnight", () => {
    expect(str('@"2021-01-01T24:00:00" + @"PT1S"')).toBe("2021-01-02T00:00:01");
    expect(str('date and time("2021-01-01T24:00:00Z")')).toBe("2021-01-02T00:00:00Z");
  });
});

describe("FEEL date and time arithmetic", () => {
  test("a date moved by a days-and-time duration stays a date", () => {
    expect(str('@"2021-01-01" + @"PT36H"')).toBe("2021-01-02");
    expect(str('@"PT36H" + @"2021-01-01"')).toBe("2021-01-02");
    expect(str('date("2021-01-02") - duration("PT1H")')).toBe("2021-01-01");
  });

  test("date-times subtract by instant when zoned, by wall clock when local, not across the two", () => {
    expect(str('@"2021-01-02T10:10:10@Europe/Paris" - @"2021-01-01T10:10:10@Asia/Dhaka"')).toBe("P1DT5H");
    expect(str('@"2021-01-02T10:10:10@Europe/Paris" - @"2021-01-01"')).toBe("P1DT9H10M10S");
    expect(str('@"2021-01-02" - @"2021-01-01T10:10:10+11:00"')).toBe("P1DT49M50S");
    expect(str('@"2021-01-02T10:10:10" - @"2021-01-01T10:10:10"')).toBe("P1D");
    expect(run('@"2021-01-02T10:10:10+01:00" - @"2021-01-01T10:10:10"')).toBeNull();
    expect(run('@"2021-01-01T00:00:00" - @"2021-01-02"')).toBeNull();
  });

  test("a zoned date-time difference stays right inside sums, built-ins and comparisons (TCK 0007)", () => {
    const dt = 'date and time("2016-12-24T23:59:00-08:00")';
    const dt2 = 'date and time(date("2015-12-24"), time("00:00:01-01:00"))';
    expect(str(`${dt} - ${dt2}`)).toBe("P367DT6H58M59S");
    expect(str(`duration("P13DT2H14S") + (${dt} - ${dt2})`)).toBe("P380DT8H59M13S");
    expect(str(`string(${dt} - ${dt2})`)).toBe("P367DT6H58M59S");
    expect(str(`abs(${dt2} - ${dt})`)).toBe("P367DT6H58M59S");
    expect(run(`(${dt} - ${dt2}) = duration("P367DT6H58M59S")`)).toBe(true);
    expect(str('duration("P1Y") - duration("P13M")')).toBe("-P1M");
    expect(run('duration("P1Y") + duration("P1D")')).toBeNull();
  });

  test("time(hour, minute, second, offset) keeps a fraction of the second", () => {
    expect(str('time(12, 59, 1.3, duration("-PT1H"))')).toBe("12:59:01.3-01:00");
    expect(str("time(23, 59, 59.5)")).toBe("23:59:59.5");
  });

  test("times do not meet dates or years-and-months durations; no arithmetic gives NaN", () => {
    expect(run('@"10:10:10" + @"P1Y"')).toBeNull();
    expect(run('@"2021-01-01" - @"10:10:10"')).toBeNull();
    expect(run('date("2017-12-31") * date("2017-12-31")')).toBeNull();
    expect(run('@"P10D" / @"P0Y"')).toBeNull();
    expect(str('10 * @"P1D"')).toBe("P10D");
  });
});

describe("FEEL texts feelin's grammar does not read", () => {
  test("comments are blanks, also in unary tests, never inside strings", () => {
    expect(run("1 + /* 1 + */ 1")).toBe(2);
    expect(run("1 + // to the end of the line\n 1")).toBe(2);
    expect(run('"a // b" + "/* c */"')).toBe("a // b/* c */");
    const t = compileUnaryTests("< 10 /* small */");
    expect(t.ok && t.value(3, {})).toEqual({ ok: true, value: true });
  });

  test("instance of range<T> checks the endpoints' type", () => {
    expect(run('range("[1..3]") instance of range<number>')).toBe(true);
    expect(run("[1..3] instance of range<string>")).toBe(false);
    expect(run('[@"P1D"..@"P2D"] instance of range<days and time duration>')).toBe(true);
    expect(run('[@"P1D"..@"P2D"] instance of range<years and months duration>')).toBe(false);
    expect(run("5 instance of range<number>")).toBe(false);
  });
});
