import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// The container runs `bun app/http/serve.ts` from a copy of some of the repository's folders (Dockerfile COPY lines).
// No Docker engine runs here or in CI, so what can be checked without one is checked: every file the service can load
// at run time (its static and dynamic imports, followed from serve.ts, and the workers it starts) sits in a copied
// folder. A folder left out means a container that dies at its first start.

const ROOT = resolve(import.meta.dir, "../..");
const transpiler = new Bun.Transpiler({ loader: "ts" });

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined; // a package: node_modules is installed in the image
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.js`, join(base, "index.ts")])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  throw new Error(`${relative(ROOT, from)} imports ${spec}, which does not resolve`);
}

/** The package a bare import names (`@scope/name/sub` → `@scope/name`), or undefined for files and built-ins. */
function packageOf(spec: string): string | undefined {
  if (spec.startsWith(".") || spec.startsWith("node:") || spec.startsWith("bun:") || spec === "bun") return undefined;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

const packages = new Set<string>();

/** Every project file reachable from the entry: imports (static, dynamic, type-only excluded) and `new Worker(new URL(...))`. */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, "utf8");
    const specs = transpiler.scanImports(code).map((i) => i.path);
    for (const m of code.matchAll(/new URL\(\s*"(\.[^"]+)"\s*,\s*import\.meta\.url\s*\)/g)) specs.push(m[1]);
    for (const spec of specs) {
      const pkg = packageOf(spec);
      if (pkg) packages.add(pkg);
      const target = resolveLocal(file, spec);
      if (target && /\.(ts|js)$/.test(target)) todo.push(target);
    }
  }
  return seen;
}

describe("the container image", () => {
  const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  const copied = [...dockerfile.matchAll(/^COPY (?!--from)(\S+) \.\/(\S+)$/gm)].map((m) => m[1]);

  test("copies every folder the service loads from serve.ts on", () => {
    const files = reachable(join(ROOT, "app/http/serve.ts"));
    expect(files.size).toBeGreaterThan(100); // the walk found the service, not just the entry
    const folders = new Set([...files].map((f) => relative(ROOT, f).split("/")[0]));
    const missing = [...folders].filter((f) => !copied.includes(f));
    expect(missing).toEqual([]);
  });

  test("installs (npm ci --omit=dev) every package the service and its console import", () => {
    reachable(join(ROOT, "app/http/serve.ts"));
    reachable(join(ROOT, "console/src/main.ts")); // the console, bundled by the service at run time
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const builtins = new Set(["fs", "path", "os", "crypto", "url", "util", "events", "stream", "child_process"]);
    // pino-pretty is a development dependency loaded in a try, only when stdout is a terminal (logger.ts).
    const optional = new Set(["pino-pretty"]);
    const missing = [...packages].filter((p) => !builtins.has(p) && !optional.has(p) && !pkg.dependencies[p]);
    expect(packages.size).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  test("runs the server process directly under tini, as a non-root user, with a readiness health check", () => {
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(dockerfile).toMatch(/^CMD \["bun", "app\/http\/serve\.ts"\]$/m);
    expect(dockerfile).toMatch(/^USER (?!root)\w+$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/health\/ready/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
  });
});
