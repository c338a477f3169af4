import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";

// The layers of DESIGN.md: app/http → app/services → engine, db, tenants. Nothing imports app/; the engine is pure.
const ROOT = resolve(import.meta.dir, "../..");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** Every import of a file: package names as written, project files as paths relative to the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [
    ...text.matchAll(/(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g),
  ].map((m) => m[1] ?? m[2]);
  return specs.map((s) => (s.startsWith(".") ? relative(ROOT, resolve(dirname(file), s)) : s));
}

function violations(layer: string, forbidden: (spec: string) => boolean): string[] {
  const bad: string[] = [];
  for (const file of sources(join(ROOT, layer))) {
    for (const spec of importsOf(file)) if (forbidden(spec)) bad.push(`${relative(ROOT, file)} imports ${spec}`);
  }
  return bad;
}

const inLayer = (spec: string, ...layers: string[]) => layers.some((l) => spec === l || spec.startsWith(`${l}/`));

describe("layer arrows", () => {
  test("the engine imports no HTTP, no ORM and nothing of app/, db/ or tenants/", () => {
    expect(
      violations("engine", (s) => /^(hono|@hono\/|drizzle-orm)/.test(s) || inLayer(s, "app", "db", "tenants")),
    ).toEqual([]);
  });
  test("db/ imports nothing of the project", () => {
    expect(violations("db", (s) => inLayer(s, "app", "engine", "tenants"))).toEqual([]);
  });
  test("tenants/ imports db/ only", () => {
    expect(violations("tenants", (s) => inLayer(s, "app", "engine"))).toEqual([]);
  });
  test("services never import the HTTP layer", () => {
    expect(violations("app/services", (s) => inLayer(s, "app/http") || /^(hono|@hono\/)/.test(s))).toEqual([]);
  });
});
