import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const roots = ["bpmn", "model", "expressions", "jobs"].map((d) => join(import.meta.dir, "..", d));
function walk(d: string): string[] {
  return readdirSync(d).flatMap((f) => {
    const p = join(d, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith(".ts") ? [p] : [];
  });
}

describe("engine layering", () => {
  test("the BPMN engine imports no HTTP framework, no ORM and nothing of app/, db/ or tenants/", () => {
    const bad: string[] = [];
    for (const f of roots.flatMap(walk)) {
      for (const m of readFileSync(f, "utf8").matchAll(/from\s+["']([^"']+)["']/g)) {
        if (/^(hono|@hono\/|drizzle-orm|drizzle-kit)/.test(m[1]) || /(^|\/)(app|db|tenants)\//.test(m[1]))
          bad.push(`${f}: ${m[1]}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
