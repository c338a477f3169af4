import { join, normalize } from "node:path";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "./env";
import { type Asset, BPMN_ASSETS, buildConsole, consolePage, DMN_ASSETS, PANEL_CSS } from "../../console/build";

const IMMUTABLE = "public, max-age=31536000, immutable";

/** One build per process: the output depends only on the source tree, whichever app instance asks. */
let built: Promise<Map<string, Asset>> | null = null;
function assets() {
  built ??= buildConsole().catch((e) => {
    built = null; // a failed build is retried by the next request rather than cached
    throw e;
  });
  return built;
}

/** Starts the build in the background (after the listener is up), so the first visitor does not wait for it. */
export function warmConsole(): void {
  assets().catch(() => {});
}

/** q-values of an Accept-Encoding header (`br;q=0.8, gzip`): coding → weight; `*` stands for the others. */
function weights(header: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (!coding) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    out.set(coding, q === undefined ? 1 : Number(q) || 0);
  }
  return out;
}

/** The precompressed form to send: brotli, else gzip, when the client accepts it (q > 0) and the asset has it. */
export function pickEncoding(header: string | undefined, a: Asset): "br" | "gzip" | null {
  const w = weights(header);
  const accepts = (coding: string) => (w.get(coding) ?? w.get("*") ?? 0) > 0;
  if (a.br && accepts("br")) return "br";
  if (a.gzip && accepts("gzip")) return "gzip";
  return null;
}

/**
 * The web console at `/` (a client of the public API under /api). The bundle is built on the first request for it and
 * kept in memory, so starting the service (and /health) never waits for the bundler.
 */
export function registerConsole(app: OpenAPIHono<AppEnv>) {
  const page = async (c: Context) => {
    c.header("cache-control", "no-cache");
    return c.html(consolePage(await assets()));
  };
  app.get("/", page);
  // SSO_RETURN_URL's default: the browser comes back from the provider with `?code=`, which the console exchanges.
  app.get("/sso/complete", page);
  app.get("/assets/:file", async (c) => {
    const a = (await assets()).get(c.req.param("file"));
    if (!a) return c.notFound();
    const headers: Record<string, string> = {
      "content-type": a.type,
      "cache-control": IMMUTABLE,
      vary: "accept-encoding",
    };
    const encoding = pickEncoding(c.req.header("accept-encoding"), a);
    if (encoding) headers["content-encoding"] = encoding;
    return new Response(encoding ? a[encoding] : a.bytes, { headers });
  });
  // Browsers and tools that ask for /favicon.ico without reading the page get the console's icon.
  app.get("/favicon.ico", async (c) => {
    const icon = [...(await assets()).keys()].find((n) => n.startsWith("favicon-"));
    return icon ? c.redirect(`/assets/${icon}`, 301) : c.notFound();
  });
  app.get("/bpmn-js/*", (c) =>
    // The properties panel's stylesheet sits beside bpmn-js's, for the modeler alone.
    packageFile(c, "/bpmn-js/", (rel) => (rel === "properties-panel.css" ? PANEL_CSS : join(BPMN_ASSETS, rel))),
  );
  app.get("/dmn-js/*", (c) => packageFile(c, "/dmn-js/", (rel) => join(DMN_ASSETS, rel)));
}

/** A file of an installed package's assets under `prefix` (not hashed: cached for a day); nothing outside it. */
async function packageFile(c: Context, prefix: string, pathOf: (rel: string) => string) {
  const rel = normalize(c.req.path.slice(prefix.length));
  if (rel.startsWith("..") || rel.includes("\0")) return c.notFound();
  const file = Bun.file(pathOf(rel));
  if (!(await file.exists())) return c.notFound();
  return new Response(file, { headers: { "cache-control": "public, max-age=86400" } });
}
