import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : n.endsWith(".ts") && !n.endsWith(".test.ts") ? [p] : [];
  });
const importsOf = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/from\s+["']([^"']+)["']/g)].map((m) =>
    m[1].startsWith(".") ? relative(ROOT, resolve(dirname(file), m[1])) : m[1],
  );

describe("outbound layering", () => {
  test("app/outbound imports engine/ only of the project", () => {
    const bad = sources(import.meta.dir).flatMap((f) =>
      importsOf(f)
        .filter((s) => /^(app|db|tenants)\//.test(s) && !s.startsWith("app/outbound"))
        .map((s) => `${relative(ROOT, f)} imports ${s}`),
    );
    expect(bad).toEqual([]);
  });

  test("the engine does no DNS and opens no socket of its own", () => {
    const bad = sources(join(ROOT, "engine")).flatMap((f) =>
      importsOf(f)
        .filter((s) => /^(node:)?(dns|dns\/promises|net|tls|http|https)$/.test(s))
        .map((s) => `${relative(ROOT, f)} imports ${s}`),
    );
    expect(bad).toEqual([]);
  });
});
