import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { startTestServer, type TestServer } from "../harness/server";
import { bundleConsole } from "../../console/build";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const assetsOf = (page: string) => [...page.matchAll(/\/assets\/([^"]+)"/g)].map((m) => m[1]);

describe("the console is served by the service at / (no CDN)", () => {
  test("/ is the page; its script, stylesheet and icon are local, hashed and cached for good", async () => {
    const res = await s.req("GET", "/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const page = await res.text();
    expect(page).not.toMatch(/https?:\/\//);
    const files = assetsOf(page);
    expect(files).toHaveLength(3);
    for (const f of files) {
      const a = await s.req("GET", `/assets/${f}`);
      expect(a.status).toBe(200);
      expect(a.headers.get("cache-control")).toContain("immutable");
      expect(a.headers.get("content-type")).toMatch(/javascript|css|image\/svg\+xml/);
    }
    // The icon: linked from the page, and /favicon.ico (asked by tools that do not read the page) leads to it.
    const icon = files.find((f) => f.startsWith("favicon-")) as string;
    expect(page).toContain(`<link rel="icon" type="image/svg+xml" href="/assets/${icon}" />`);
    const ico = await s.req("GET", "/favicon.ico");
    expect(ico.status).toBe(301);
    expect(ico.headers.get("location")).toBe(`/assets/${icon}`);
  });
  test("one Preact in the bundle: the console, bpmn-js's UI and the properties panel share one copy", async () => {
    const out = await bundleConsole();
    expect(out.success).toBe(true);
    const meta = (typeof out.metafile === "string" ? JSON.parse(out.metafile) : out.metafile) as {
      inputs: Record<string, unknown>;
    };
    const preact = Object.keys(meta.inputs).filter(
      (p) => /(^|\/)preact\//.test(p) && !p.startsWith("node_modules/htm/"),
    );
    const copies = new Set(preact.map((p) => p.slice(0, p.lastIndexOf("preact/") + "preact".length)));
    expect([...copies]).toEqual(["node_modules/@bpmn-io/properties-panel/preact"]);
    // Its core, hooks, compat (the panel) and jsx runtime (the panel): each once.
    expect(preact.some((p) => p.includes("/compat/"))).toBe(true);
    expect(preact.some((p) => p.includes("/jsx-runtime/"))).toBe(true);
  });
  test("bpmn-js is not in the main bundle: the diagram pages import it as a chunk of its own", async () => {
    const page = await (await s.req("GET", "/")).text();
    const main = assetsOf(page).find((f) => f.endsWith(".js")) as string;
    const js = await (await s.req("GET", `/assets/${main}`)).text();
    expect(js).not.toContain("bjs-container");
    const lazyImports = (text: string) => [...text.matchAll(/import\("\.\/(chunk-[^"]+)"\)/g)].map((m) => m[1]);
    expect(lazyImports(js).length).toBeGreaterThan(0);
    // The first load: the entry and the chunks it imports statically; none of them holds bpmn-js.
    const staticImports = (text: string) => [...text.matchAll(/from"\.\/(chunk-[^"]+)"/g)].map((m) => m[1]);
    const reach = async (start: string[], follow: (t: string) => string[]) => {
      const seen = new Map<string, string>();
      for (let todo = [...start]; todo.length; ) {
        const c = todo.pop() as string;
        if (seen.has(c)) continue;
        const text = await (await s.req("GET", `/assets/${c}`)).text();
        seen.set(c, text);
        todo.push(...follow(text));
      }
      return [...seen.values()].join("");
    };
    expect(await reach(staticImports(js), staticImports)).not.toContain("bjs-container");
    // every chunk reachable through lazy imports and theirs (the diagram modules, the viewer and the modeler, and
    // the bpmn-js code they share)
    const lazy = await reach(lazyImports(js), (t) => [...lazyImports(t), ...staticImports(t)]);
    expect(lazy).toContain("bjs-container");
    expect(lazy).toContain("createDiagram"); // the modeler
    expect(lazy).toContain("bio-properties-panel"); // the properties panel, with the modeler only
    expect(await reach(staticImports(js), staticImports)).not.toContain("bio-properties-panel");
    expect(js).not.toContain("bio-properties-panel");
    // dmn-js (the decision editor: its tables, DRD and the inferno they render with) and the editor's pages likewise
    // only lazily.
    const first = js + (await reach(staticImports(js), staticImports));
    for (const marker of [
      "dmn-decision-table-container",
      "dmn-drd-container",
      "Inferno Error: ",
      "Editing decisions needs",
    ])
      expect(first).not.toContain(marker);
    expect(lazy).toContain("dmn-decision-table-container");
    expect(lazy).toContain("dmn-drd-container");
    expect(lazy).toContain("Inferno Error: ");
  });
  test("dmn-js's inputs: inferno once, no second Preact, its editor behind a dynamic import", async () => {
    const out = await bundleConsole();
    const meta = (typeof out.metafile === "string" ? JSON.parse(out.metafile) : out.metafile) as {
      inputs: Record<string, { imports: { path: string; kind: string; entryPoint?: string }[] }>;
    };
    const inputs = Object.keys(meta.inputs);
    expect(inputs.some((p) => p.startsWith("node_modules/dmn-js-decision-table/"))).toBe(true);
    expect(new Set(inputs.filter((p) => /\/inferno\//.test(p)).map((p) => p.split("/inferno/")[0]))).toEqual(
      new Set(["node_modules"]),
    );
    // the editor module is reached from the console only through import(), never statically
    const toCanvas = Object.values(meta.inputs).flatMap((i) =>
      i.imports.filter((x) => /dmn-canvas\.ts$/.test(x.entryPoint ?? x.path)),
    );
    expect(toCanvas.length).toBeGreaterThan(0);
    expect(toCanvas.every((x) => x.kind === "dynamic-import")).toBe(true);
  });
  test("the API stays under /api; unknown assets and paths out of the bpmn-js folder answer 404", async () => {
    expect((await s.req("GET", "/api/a/tasks")).status).toBe(401);
    expect((await s.req("GET", "/assets/nothing.js")).status).toBe(404);
    expect((await s.req("GET", "/bpmn-js/../package.json")).status).toBe(404);
    expect((await s.req("GET", "/bpmn-js/%2e%2e/package.json")).status).toBe(404);
    const css = await s.req("GET", "/bpmn-js/bpmn-js.css");
    expect(css.status).toBe(200);
    const panel = await s.req("GET", "/bpmn-js/properties-panel.css");
    expect(panel.status).toBe(200);
    expect(await panel.text()).toContain(".bio-properties-panel");
    const dmn = await s.req("GET", "/dmn-js/dmn-js-decision-table.css");
    expect(dmn.status).toBe(200);
    expect(await dmn.text()).toContain(".dmn-decision-table-container");
    expect((await s.req("GET", "/dmn-js/dmn-font/css/dmn-embedded.css")).status).toBe(200);
    expect((await s.req("GET", "/dmn-js/../package.json")).status).toBe(404);
    expect((await s.req("GET", "/dmn-js/%2e%2e/package.json")).status).toBe(404);
  });
});

describe("precompressed assets", () => {
  const mainOf = async () =>
    assetsOf(await (await s.req("GET", "/")).text()).find((f) => f.startsWith("main-")) as string;
  test("brotli when accepted, else gzip, else the bytes themselves; each varies on Accept-Encoding", async () => {
    const main = await mainOf();
    const plain = await s.req("GET", `/assets/${main}`);
    const raw = new Uint8Array(await plain.arrayBuffer());
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("accept-encoding");
    const get = (ae: string) => s.req("GET", `/assets/${main}`, { headers: { "accept-encoding": ae } });
    const br = await get("gzip, deflate, br");
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("cache-control")).toContain("immutable");
    const brBytes = new Uint8Array(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(raw.length / 2);
    expect(Buffer.from(brotliDecompressSync(brBytes)).equals(Buffer.from(raw))).toBe(true);
    const gz = await get("gzip");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(Buffer.from(gunzipSync(new Uint8Array(await gz.arrayBuffer()))).equals(Buffer.from(raw))).toBe(true);
    // Refused codings (q=0) are not sent; `*` covers the others.
    expect((await get("br;q=0, gzip;q=0.5")).headers.get("content-encoding")).toBe("gzip");
    expect((await get("br;q=0, gzip;q=0")).headers.get("content-encoding")).toBeNull();
    expect((await get("*")).headers.get("content-encoding")).toBe("br");
    expect((await get("identity")).headers.get("content-encoding")).toBeNull();
  });
});
