import { describe, expect, test } from "bun:test";
import { runFeel as run } from "./test-support";

// The interval functions of DMN 1.5 §10.3.4.9 (TCK folder 1130, not in the corpus part): each case is written from the
// definitions of table 78, on points and ranges with open and closed ends. `[expression, expected]` pairs.
function check(cases: [string, boolean | null][]) {
  expect(cases.map(([e]) => [e, run(e)])).toEqual(cases);
}

describe("interval functions (DMN 1.5 table 78)", () => {
  test("before and after: points, point and range, ranges", () => {
    check([
      ["before(1, 10)", true],
      ["before(10, 1)", false],
      ["before(1, [2..5])", true],
      ["before(1, (1..5])", true],
      ["before(1, [1..5])", false],
      ["before([1..5], 10)", true],
      ["before([1..5), 5)", true],
      ["before([1..5], 5)", false],
      ["before([1..5], [6..8])", true],
      ["before([1..5), [5..8])", true],
      ["before([1..5], (5..8])", true],
      ["before([1..5], [5..8])", false],
      ["after(10, 1)", true],
      ["after(12, [2..5])", true],
      ["after(5, [1..5))", true],
      ["after(5, [1..5])", false],
      ["after((5..10], 5)", true],
      ["after([5..10], 5)", false],
      ["after([6..8], [1..5])", true],
      ["after((5..8], [1..5])", true],
      ["after([5..8], [1..5))", true],
      ["after([5..8], [1..5])", false],
    ]);
  });

  test("meets, met by, overlaps", () => {
    check([
      ["meets([1..5], [5..10])", true],
      ["meets([1..3], [4..6])", false],
      ["meets([1..5], (5..8])", false],
      ["meets([1..5), [5..8])", false],
      ["met by([5..10], [1..5])", true],
      ["met by([3..4], [1..2])", false],
      ["met by((5..8], [1..5))", false],
      ["met by([5..10], [1..5))", false],
      ["overlaps([5..10], [1..6])", true],
      ["overlaps((3..7], [1..4])", true],
      ["overlaps([1..3], (3..6])", false],
      ["overlaps((5..8], [1..5])", false],
      ["overlaps([4..10], [1..5))", true],
      ["overlaps([1..2], [3..4])", false],
    ]);
  });

  test("overlaps before and overlaps after", () => {
    check([
      ["overlaps before([1..5], [3..8])", true],
      ["overlaps before([1..5], [6..8])", false],
      ["overlaps before([1..5], [5..8])", true],
      ["overlaps before([1..5], (5..8])", false],
      ["overlaps before([1..5), [5..8])", false],
      ["overlaps before([1..5), (1..5])", true],
      ["overlaps before([1..5], (1..5])", true],
      ["overlaps before([1..5), [1..5])", false],
      ["overlaps before([1..5], [1..5])", false],
      ["overlaps after([3..8], [1..5])", true],
      ["overlaps after([6..8], [1..5])", false],
      ["overlaps after([5..8], [1..5])", true],
      ["overlaps after((5..8], [1..5])", false],
      ["overlaps after([5..8], [1..5))", false],
      ["overlaps after((1..5], [1..5))", true],
      ["overlaps after((1..5], [1..5])", true],
      ["overlaps after([1..5], [1..5))", false],
      ["overlaps after([1..5], [1..5])", false],
    ]);
  });

  test("finishes and finished by", () => {
    check([
      ["finishes(10, [1..10])", true],
      ["finishes(10, [1..10))", false],
      ["finishes([5..10], [1..10])", true],
      ["finishes([5..10), [1..10])", false],
      ["finishes([5..10), [1..10))", true],
      ["finishes([1..10], [1..10])", true],
      ["finishes((1..10], [1..10])", true],
      ["finishes([1..10], (1..10])", false],
      ["finished by([1..10], 10)", true],
      ["finished by([1..10), 10)", false],
      ["finished by([1..10], [5..10])", true],
      ["finished by([1..10], [5..10))", false],
      ["finished by([1..10), [5..10))", true],
      ["finished by([1..10], [1..10])", true],
      ["finished by([1..10], (1..10])", true],
      ["finished by((1..10], [1..10])", false],
    ]);
  });

  test("includes and during", () => {
    check([
      ["includes([1..10], 5)", true],
      ["includes([1..10], 12)", false],
      ["includes([1..10], 1)", true],
      ["includes([1..10], 10)", true],
      ["includes((1..10], 1)", false],
      ["includes([1..10), 10)", false],
      ["includes([1..10], [4..6])", true],
      ["includes([1..10], [1..5])", true],
      ["includes((1..10], (1..5])", true],
      ["includes([1..10], (1..10))", true],
      ["includes([1..10), [5..10))", true],
      ["includes([1..10], [1..10))", true],
      ["includes([1..10], [1..10])", true],
      ["includes((1..10], [1..10])", false],
      ["during(5, [1..10])", true],
      ["during(12, [1..10])", false],
      ["during(1, [1..10])", true],
      ["during(10, [1..10])", true],
      ["during(1, (1..10])", false],
      ["during(10, [1..10))", false],
      ["during([4..6], [1..10))", true],
      ["during([1..5], [1..10])", true],
      ["during((1..5], (1..10])", true],
      ["during((1..10), [1..10])", true],
      ["during([5..10), [1..10))", true],
      ["during([1..10), [1..10])", true],
      ["during([1..10], [1..10])", true],
      ["during([1..10], (1..10])", false],
    ]);
  });

  test("starts, started by, coincides", () => {
    check([
      ["starts(1, [1..10])", true],
      ["starts(1, (1..10])", false],
      ["starts(2, [1..10])", false],
      ["starts([1..5], [1..10])", true],
      ["starts((1..5], (1..10])", true],
      ["starts((1..5], [1..10])", false],
      ["starts([1..10], [1..10])", true],
      ["starts([1..10), [1..10])", true],
      ["starts((1..10), (1..10))", true],
      ["starts([1..10], [1..10))", false],
      ["started by([1..10], 1)", true],
      ["started by((1..10], 1)", false],
      ["started by([1..10], 2)", false],
      ["started by([1..10], [1..5])", true],
      ["started by((1..10], (1..5])", true],
      ["started by([1..10], (1..5])", false],
      ["started by([1..10], [1..5))", true],
      ["started by([1..10], [1..10))", true],
      ["started by([1..10], [1..10])", true],
      ["started by((1..10), (1..10))", true],
      ["coincides(5, 5)", true],
      ["coincides(3, 4)", false],
      ["coincides([1..5], [1..5])", true],
      ["coincides((1..5), [1..5])", false],
      ["coincides([1..5], [2..6])", false],
    ]);
  });

  test("named parameters, other comparable types, and what has no answer", () => {
    check([
      ["before(point1: 1, point2: 10)", true],
      ["before(range1: [1..5], range2: [6..8])", true],
      ["after(point: 12, range: [2..5])", true],
      ["includes(range: [1..10], point: 5)", true],
      ['before(@"2020-01-01", [@"2020-01-02"..@"2020-12-31"])', true],
      ['meets([@"2020-01-01"..@"2020-01-31"], [@"2020-01-31"..@"2020-02-28"])', true],
      ['during(@"PT2H", [@"PT1H"..@"PT3H"])', true],
      ['before("a", "b")', true],
      ['before(1, "b")', null],
      ["before(null, 1)", null],
      ["meets(1, [1..2])", null],
    ]);
  });
});
