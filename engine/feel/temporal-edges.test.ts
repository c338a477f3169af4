import { describe, expect, test } from "bun:test";
import { runFeel as run } from "./test-support";

// Temporal clusters of DMN TCK level 3 whose folders are not in the corpus part (0095-0098 week/day/month of year and
// day of week, 1115/1117/0007 signed and five-digit years, 1120/1121 durations), written from DMN 1.5 §10.3.4.6 and
// XML Schema: `[expression, expected]` pairs, temporals compared by their FEEL string.
function check(cases: [string, unknown][]) {
  expect(cases.map(([e]) => [e, plain(run(e))])).toEqual(cases);
}
const plain = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(plain) : v !== null && typeof v === "object" ? String(v) : v;

describe("calendar functions at the edges of the ISO week-numbering year", () => {
  test("week of year", () => {
    check([
      ["week of year(date(2019, 9, 17))", 38],
      ["week of year(date(2003, 12, 29))", 1],
      ["week of year(date(2004, 1, 4))", 1],
      ["week of year(date(2005, 1, 1))", 53],
      ["week of year(date(2005, 1, 3))", 1],
      ["week of year(date(2005, 1, 9))", 1],
      ["week of year(date(2008, 12, 29))", 1],
      ["week of year(date(2010, 1, 3))", 53],
      ["week of year(date(2020, 12, 31))", 53],
      ["week of year(date(2021, 1, 1))", 53],
      ["week of year(date(2021, 1, 4))", 1],
      ['week of year(date and time("2019-09-17T23:59:59Z"))', 38],
      ["week of year(null)", null],
    ]);
  });

  test("day of year, month of year, day of week", () => {
    check([
      ["day of year(date(2019, 9, 17))", 260],
      ["day of year(date(2019, 1, 1))", 1],
      ["day of year(date(2019, 12, 31))", 365],
      ["day of year(date(2020, 12, 31))", 366],
      ['day of year(date and time("2020-03-01T00:00:00"))', 61],
      ["month of year(date(2019, 9, 17))", "September"],
      ["month of year(date(2019, 1, 31))", "January"],
      ["month of year(date(2019, 12, 1))", "December"],
      ["day of week(date(2019, 9, 17))", "Tuesday"],
      ["day of week(date(2019, 9, 15))", "Sunday"],
      ["day of week(date(2019, 9, 16))", "Monday"],
      ['day of week(date and time("2019-09-21T10:00:00"))', "Saturday"],
      ["day of year(null)", null],
      ["month of year(null)", null],
      ["day of week(null)", null],
    ]);
  });
});

describe("signed and five-digit years (XML Schema 1.1 dates)", () => {
  test("date() from strings and from fields", () => {
    check([
      ['date("-2017-12-31")', "-2017-12-31"],
      ['string(date("99999-12-31"))', "99999-12-31"],
      ['string(date("-99999-12-31"))', "-99999-12-31"],
      ["string(date(-2017, 12, 31))", "-2017-12-31"],
      ["string(date(99999, 12, 31))", "99999-12-31"],
      ['date("-2017-12-31").year', -2017],
      ['date("99999-12-31").year', 99999],
      ['date("-0001-12-31").year', -1],
      ['date("+2017-12-31")', null],
      ['date("02017-12-31")', null],
      ['date("017-12-31")', null],
      ['date("-2017-02-29")', null],
      ['date("-2016-02-29")', "-2016-02-29"],
      ['date("-2017-12-31") < date("2017-01-01")', true],
      ['date("99999-12-31") > date("9999-12-31")', true],
    ]);
  });

  test("date and time with such years, and arithmetic across them", () => {
    check([
      ['date and time("-2017-12-31T10:20:00")', "-2017-12-31T10:20:00"],
      ['string(date and time("99999-12-31T23:59:59Z"))', "99999-12-31T23:59:59Z"],
      ['date and time("-99999-12-31T11:22:33+02:00")', "-99999-12-31T11:22:33+02:00"],
      ['date and time(date("-2017-12-31"), time("10:20:00"))', "-2017-12-31T10:20:00"],
      ['date and time("99999-12-31T23:59:59").year', 99999],
      ['date("-2017-12-31") + duration("P1D")', "-2016-01-01"],
      ['date("9999-12-31") + duration("P1D")', "10000-01-01"],
      ['date("10000-01-01") - date("9999-12-31")', "P1D"],
      ['years and months duration(date("-2017-01-01"), date("2017-01-01"))', "P4034Y"],
    ]);
  });
});

describe("time() as XML Schema reads times", () => {
  test("a zero offset is Z; offsets past ±18:00, date-time texts, an offset with a zone and dates are no time", () => {
    check([
      ['time("11:22:33+00:00")', "11:22:33Z"],
      ['time("11:22:33-00:00")', "11:22:33Z"],
      ['time(11, 59, 45, duration("PT0H"))', "11:59:45Z"],
      ['time(date and time("2017-08-10T10:20:00+00:00"))', "10:20:00Z"],
      ['date and time("2017-08-10T10:20:00+00:00")', "2017-08-10T10:20:00Z"],
      ['time("13:20:00+18:00")', "13:20:00+18:00"],
      ['time("13:20:00+19:00")', null],
      ['time("13:20:00+02:00@Europe/Paris")', null],
      ['time("2017-08-10T10:20:00")', null],
      ['time("7:00:00")', null],
      ['time(date("2017-08-10"))', null],
      ['time(date and time("2017-08-10T10:20:00@Europe/Paris"))', "10:20:00@Europe/Paris"],
      ['time(from: "12:45:00")', "12:45:00"],
      ['time(hour: 11, minute: 59, second: 0, offset: duration("-PT2H"))', "11:59:00-02:00"],
      ['string(time(11, 59, 45, duration("PT2H45M55S")))', "11:59:45+02:45:55"],
      ['date and\n time("2018-12-08T00:00:00@Europe/Paris") = date and time("2018-12-08T00:00:00@Europe/Paris")', true],
    ]);
  });
});

describe("durations as XML Schema writes them", () => {
  test("seconds with a bare decimal point, signs, zero", () => {
    check([
      ['duration("PT0.S")', "PT0S"],
      ['duration("PT.5S")', "PT0.5S"],
      ['duration("PT1.500S")', "PT1.5S"],
      ['duration("-P1D")', "-P1D"],
      ['duration("P0D")', "PT0S"],
      ['duration("P0Y")', "P0M"],
      ['duration("P1W")', null],
      ['duration("P")', null],
      ['duration("PT")', null],
      ['duration("P1.5D")', null],
      ['duration("P1Y").years', 1],
      ['duration("P25M").years', 2],
      ['duration("P25M").months', 1],
      ['duration("PT90M").hours', 1],
    ]);
  });
});
