import { describe, expect, test } from "bun:test";
import { compileUnaryTests } from "./index";
import { runFeel as run } from "./test-support";

// FEEL matches / replace / split take XPath regular expressions (DMN 1.5 §10.3.4.3, XPath F&O 3.1 §5.6).

describe("XPath regular expressions in FEEL", () => {
  test("matches is unanchored and honours the flags s, m, i, x, q", () => {
    expect(run('matches("abracadabra", "bra")')).toBe(true);
    expect(run('matches("abracadabra", "^a.*a$")')).toBe(true);
    expect(run('matches("abracadabra", "^bra")')).toBe(false);
    expect(run('matches("Mary", "mary", "i")')).toBe(true);
    expect(run('matches("a\\nb", "a.b")')).toBe(false);
    expect(run('matches("a\\nb", "a.b", "s")')).toBe(true);
    expect(run('matches("line\\nmore", "^more$", "m")')).toBe(true);
    expect(run('matches("abc", "a b c", "x")')).toBe(true);
    expect(run('matches("a.c", "a.c", "q")')).toBe(true);
    expect(run('matches("abc", "a.c", "q")')).toBe(false);
  });

  test("XSD-only syntax is translated: class subtraction, name escapes, blocks, escaped hyphen", () => {
    expect(run('matches("e", "^[a-z-[aeiou]]$")')).toBe(false);
    expect(run('matches("b", "^[a-z-[aeiou]]$")')).toBe(true);
    expect(run('matches("_x1", "^\\\\i\\\\c*$")')).toBe(true);
    expect(run('matches("1x", "^\\\\i")')).toBe(false);
    expect(run('matches("abc", "^\\\\p{IsBasicLatin}+$")')).toBe(true);
    expect(run('matches("é", "^\\\\p{IsBasicLatin}$")')).toBe(false);
    expect(run('matches("a-b", "a\\\\-b")')).toBe(true);
    expect(run('matches("Ä", "^\\\\p{Lu}$")')).toBe(true);
  });

  test("an invalid pattern or flag gives null", () => {
    expect(run('matches("abc", "[a-")')).toBeNull();
    expect(run('matches("abc", "a", "g")')).toBeNull();
    expect(run('matches("abc", "\\\\p{IsNoSuchBlock}")')).toBeNull();
    expect(run('matches(1, "1")')).toBeNull();
  });

  test("replace uses $N groups, \\$ and \\\\ escapes, and refuses a pattern matching the empty string", () => {
    expect(run('replace("abcd", "(ab)|(a)", "[1=$1][2=$2]")')).toBe("[1=ab][2=]cd");
    expect(run('replace("darted", "^(.*?)d(.*)$", "$1c$2")')).toBe("carted");
    expect(run('replace("abc", "b", "\\\\$")')).toBe("a$c");
    expect(run('replace("abc", "b", "$")')).toBeNull();
    expect(run('replace("abc", "x*", "-")')).toBeNull();
    expect(run('replace("a.b.c", ".", "$", "q")')).toBe("a$b$c");
    expect(run('replace("AbC", "b", "x", "i")')).toBe("AxC");
  });

  test("split splits on a pattern", () => {
    expect(run('split("a1b22c", "[0-9]+")')).toEqual(["a", "b", "c"]);
    expect(run('split("", ",")')).toEqual([]);
    expect(run('split("a,b", "x*")')).toBeNull();
  });

  test("a variable named matches is the variable, and regex functions work inside unary-test texts too", () => {
    expect(run("matches + 1", { matches: 1 })).toBe(2);
    const t = compileUnaryTests('matches(?, "^\\i")');
    if (!t.ok) throw new Error(t.error.message);
    expect(t.value("ab", {})).toEqual({ ok: true, value: true });
    expect(t.value("1b", {})).toEqual({ ok: true, value: false });
  });
});
