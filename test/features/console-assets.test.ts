import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const assetsOf = (page: string) => [...page.matchAll(/\/assets\/([^"]+)"/g)].map((m) => m[1]);

describe("the console is served by the service at / (no CDN)", () => {
  test("/ is the page; its script and stylesheet are local, hashed and cached for good", async () => {
    const res = await s.req("GET", "/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const page = await res.text();
    expect(page).not.toMatch(/https?:\/\//);
    const files = assetsOf(page);
    expect(files).toHaveLength(2);
    for (const f of files) {
      const a = await s.req("GET", `/assets/${f}`);
      expect(a.status).toBe(200);
      expect(a.headers.get("cache-control")).toContain("immutable");
      expect(a.headers.get("content-type")).toMatch(/javascript|css/);
    }
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
  });
  test("the API stays under /api; unknown assets and paths out of the bpmn-js folder answer 404", async () => {
    expect((await s.req("GET", "/api/a/tasks")).status).toBe(401);
    expect((await s.req("GET", "/assets/nothing.js")).status).toBe(404);
    expect((await s.req("GET", "/bpmn-js/../package.json")).status).toBe(404);
    expect((await s.req("GET", "/bpmn-js/%2e%2e/package.json")).status).toBe(404);
    const css = await s.req("GET", "/bpmn-js/bpmn-js.css");
    expect(css.status).toBe(200);
  });
});
