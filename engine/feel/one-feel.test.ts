import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : n.endsWith(".ts") && !n.endsWith(".test.ts") ? [p] : [];
  });

describe("one FEEL", () => {
  test("only engine/feel parses or evaluates FEEL with feelin; the rest uses its value types at most", () => {
    const bad: string[] = [];
    for (const file of [...sources(join(ROOT, "engine")), ...sources(join(ROOT, "app"))]) {
      if (file.startsWith(import.meta.dir)) continue;
      for (const m of readFileSync(file, "utf8").matchAll(
        /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["']feelin["']/g,
      )) {
        if (/\b(evaluate|unaryTest|parseExpression|parseUnaryTests)\b/.test(m[1])) bad.push(relative(ROOT, file));
      }
    }
    expect(bad).toEqual([]);
  });
});
