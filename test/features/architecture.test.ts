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

const PLATFORM_IN_CODE =
  /\bplatform\.[A-Za-z_]|var\.platform\b|:\s*Platform\b|\bPlatform\s*[>,)]|\{[^}]*\bPlatform\b[^}]*\}\s*from/;

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
  test("the HTTP layer holds no platform and no database: only serve.ts imports app/platform; no drizzle, no bun:sqlite", () => {
    const http = join(ROOT, "app/http");
    expect(
      violations("app/http", (s) => /^(drizzle-orm|bun:sqlite)/.test(s) || inLayer(s, "app/platform")).filter(
        (v) => !v.startsWith("app/http/serve.ts "),
      ),
    ).toEqual([]);
    const named = sources(http)
      .filter((f) => !f.endsWith("serve.ts"))
      // Code that names the platform object or its type (prose such as "platform administration" is fine).
      .filter((f) => PLATFORM_IN_CODE.test(readFileSync(f, "utf8")))
      .map((f) => relative(ROOT, f));
    expect(named).toEqual([]);
  });
  test("routes reach the ports only through a built ctx (the middleware and platform-ctx.ts read c.var.deps)", () => {
    const routes = sources(join(ROOT, "app/http/routes")).filter((f) => readFileSync(f, "utf8").includes("var.deps"));
    expect(routes.map((f) => relative(ROOT, f))).toEqual([]);
  });
  test("services never import app/platform (the platform imports services, never the reverse)", () => {
    expect(violations("app/services", (s) => inLayer(s, "app/platform"))).toEqual([]);
  });
  test("app/ai imports no service, no HTTP and not the assembly (services call it through ctx.ai)", () => {
    expect(violations("app/ai", (s) => inLayer(s, "app/services", "app/http", "app/platform", "app/runtime"))).toEqual(
      [],
    );
  });
  test("app/mcp reaches the platform only through services (no HTTP, no runtime, no database, no assembly)", () => {
    expect(
      violations("app/mcp", (s) => inLayer(s, "app/http", "app/runtime", "app/platform", "db", "tenants", "engine")),
    ).toEqual([]);
  });
  test("services never import the HTTP layer", () => {
    expect(violations("app/services", (s) => inLayer(s, "app/http") || /^(hono|@hono\/)/.test(s))).toEqual([]);
  });
});

/** Source text of a layer, tests excluded. */
const textsOf = (layer: string) =>
  sources(join(ROOT, layer)).map((f) => ({ file: relative(ROOT, f), text: readFileSync(f, "utf8") }));

/** The engine database's tables, read from its drizzle schema: only app/runtime may name them in SQL. */
const ENGINE_TABLES = [
  ...new Set(
    sources(join(ROOT, "db/engine/schema")).flatMap((f) =>
      [...readFileSync(f, "utf8").matchAll(/sqliteTable\(\s*"([a-z_]+)"/g)].map((m) => m[1]),
    ),
  ),
];

describe("one operation layer", () => {
  test("the runtime imports no service, no HTTP and not the assembly", () => {
    expect(violations("app/runtime", (s) => inLayer(s, "app/services", "app/http", "app/platform"))).toEqual([]);
  });
  test("app/http reaches no runtime, no database and no tenant file; handlers need no `as never`", () => {
    expect(violations("app/http", (s) => inLayer(s, "app/runtime", "db", "tenants"))).toEqual([]);
    const bad = textsOf("app/http").flatMap(({ file, text }) => [
      ...(/\bas never\b/.test(text) ? [`${file}: as never`] : []),
      ...(/\.(processRuntime|caseRuntime|decisionStore|platformDb)\b|ctx\.db\b/.test(text) ? [`${file}: a port`] : []),
    ]);
    expect(bad).toEqual([]);
  });
  test("the console's browser code is an API client: no server module but the shared form rules and DMN step", () => {
    const SHARED = new Set([
      "app/services/forms/required-fields",
      "app/services/forms/visibility",
      "app/services/forms/field-types",
      // the DMN namespace step, so the decision editor opens DMN 1.1–1.5 files as the engine reads them
      "engine/dmn/model/namespaces",
    ]);
    const bad = violations(
      "console/src",
      (s) => inLayer(s, "app", "engine", "db", "tenants") && !SHARED.has(s.replace(/\.ts$/, "")),
    );
    expect(bad).toEqual([]);
    // and the shared rules stay free of anything server-only (they are bundled for the browser)
    for (const f of SHARED)
      expect(importsOf(join(ROOT, `${f}.ts`)).filter((s) => inLayer(s, "app/runtime", "db", "tenants"))).toEqual([]);
  });
  test("only the runtime names the engine database's tables", () => {
    expect(ENGINE_TABLES).toContain("process_instances");
    const sql = new RegExp(`\\b(FROM|JOIN|INTO|UPDATE|TABLE)\\s+(${ENGINE_TABLES.join("|")})\\b`, "i");
    const bad = ["app/http", "app/services", "app/platform", "app/outbound", "tenants"].flatMap((layer) =>
      textsOf(layer)
        .filter(({ text }) => sql.test(text) || /db\/engine\/schema/.test(text))
        .map(({ file }) => file),
    );
    expect(bad).toEqual([]);
  });
  test("every route folder has its service folder of the same name", () => {
    const dirs = (d: string) => readdirSync(join(ROOT, d)).filter((n) => statSync(join(ROOT, d, n)).isDirectory());
    const services = dirs("app/services");
    expect(dirs("app/http/routes").filter((r) => r !== "groups" && !services.includes(r))).toEqual([]);
  });
});

describe("file length", () => {
  test("no source file is over 300 lines (generated migrations aside)", () => {
    const all = (d: string): string[] =>
      readdirSync(d).flatMap((n) => {
        const p = join(d, n);
        return statSync(p).isDirectory() ? (n === "migrations" ? [] : all(p)) : n.endsWith(".ts") ? [p] : [];
      });
    const long = ["app", "engine", "db", "tenants", "console", "test", "bench", "scripts"]
      .flatMap((d) => all(join(ROOT, d)))
      .map((f) => ({ file: relative(ROOT, f), lines: readFileSync(f, "utf8").split("\n").length - 1 }))
      .filter((x) => x.lines > 300);
    expect(long).toEqual([]);
  });
});

/**
 * The project files a file imports at run time: `import type`, `export type` and imports whose every name is marked
 * `type` are erased by the compiler and make no cycle.
 */
function runtimeImportsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  const re =
    /^(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/gm;
  for (const m of text.matchAll(re)) {
    const spec = m[3] ?? m[4];
    if (m[1]) continue;
    const names = m[2] ? /\{([^}]*)\}/.exec(m[2]) : null;
    const onlyNamed = m[2] && /^\{[^}]*\}$/.test(m[2].trim());
    if (onlyNamed && names?.[1].split(",").every((n) => !n.trim() || /^type\s/.test(n.trim()))) continue;
    const base = resolve(dirname(file), spec);
    const target = [base, `${base}.ts`, join(base, "index.ts")].find((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    });
    if (target) out.push(relative(ROOT, target));
  }
  return out;
}

/** Strongly connected components of more than one file (Tarjan): each is an import cycle. */
function importCycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [relative(ROOT, f), runtimeImportsOf(f)]));
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) cycles.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return cycles;
}

describe("import cycles", () => {
  test("no file reaches itself through run-time imports (type-only imports excepted)", () => {
    const files = ["app", "engine", "db", "tenants", "console/src"].flatMap((d) => sources(join(ROOT, d)));
    expect(importCycles(files)).toEqual([]);
  });
});
