import { describe, expect, test } from "bun:test";
import { Glob } from "bun";

// Browsers compile an input's `pattern` with the `v` flag (Chromium refuses the pattern, and logs an error, when that
// fails). Every pattern attribute in the console's templates must compile so: a literal `-` in a class is escaped.
describe("pattern attributes", () => {
  test("each compiles under the v flag and still means what it says", async () => {
    const found: string[] = [];
    for await (const file of new Glob("**/*.ts").scan(import.meta.dir)) {
      if (file.endsWith(".test.ts")) continue;
      const text = await Bun.file(`${import.meta.dir}/${file}`).text();
      // In the source, a template literal's `\\` is one backslash in the attribute.
      for (const m of text.matchAll(/pattern="([^"]+)"/g)) found.push(m[1].replaceAll("\\\\", "\\"));
    }
    expect(found.length).toBeGreaterThan(3);
    for (const p of found) expect(() => new RegExp(`^(?:${p})$`, "v")).not.toThrow();
    const slug = new RegExp(`^(?:${found.find((p) => p.startsWith("[a-z0-9"))})$`, "v");
    expect(slug.test("acme-co")).toBe(true);
    expect(slug.test("Acme")).toBe(false);
  });
});
