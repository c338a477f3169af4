import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { onePreact } from "./one-preact";

/** One built file of the console, held in memory, with its precompressed forms (absent when they save nothing). */
export interface Asset {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
  br?: Uint8Array<ArrayBuffer>;
  gzip?: Uint8Array<ArrayBuffer>;
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Brotli and gzip (level 9) of an asset, made once per build. Brotli's quality 11 costs ~15× quality 9 for ~10 % fewer
 * bytes, so it is kept for files up to 400 KB (the first load: entry, stylesheet); the large lazy chunks take 9. zlib's
 * asynchronous forms run on libuv's thread pool, so the event loop keeps serving while the build compresses.
 */
async function compress(a: Asset): Promise<Asset> {
  const [b, g] = await Promise.all([
    brotli(a.bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: a.bytes.length <= 400 * 1024 ? 11 : 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: a.bytes.length,
      },
    }),
    gz(a.bytes, { level: 9 }),
  ]);
  const smaller = (c: Buffer) => (c.length < a.bytes.length ? new Uint8Array(c) : undefined);
  return { ...a, br: smaller(b), gzip: smaller(g) };
}

const HERE = import.meta.dir;
const ENTRY = join(HERE, "src/main.ts");
const STYLES = join(HERE, "styles.css");
const FAVICON = join(HERE, "favicon.svg");
/** bpmn-js ships its CSS and font beside the bundles; the diagram pages link them from here (no CDN). */
export const BPMN_ASSETS = join(dirname(require.resolve("bpmn-js/package.json")), "dist/assets");
/** dmn-js's stylesheets and font (the decision editor links them from /dmn-js/, no CDN). */
export const DMN_ASSETS = join(dirname(require.resolve("dmn-js/package.json")), "dist/assets");
/** The properties panel's stylesheet (the modeler links it as /bpmn-js/properties-panel.css). */
export const PANEL_CSS = join(
  dirname(require.resolve("@bpmn-io/properties-panel/package.json")),
  "dist/assets/properties-panel.css",
);

const typeOf = (path: string) =>
  path.endsWith(".js")
    ? "text/javascript; charset=utf-8"
    : path.endsWith(".css")
      ? "text/css; charset=utf-8"
      : path.endsWith(".svg")
        ? "image/svg+xml"
        : "application/octet-stream";

/** Bun's bundler over the console (its metafile says which source files went in: tests read it). */
export function bundleConsole() {
  return Bun.build({
    entrypoints: [ENTRY],
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": '"production"' },
    plugins: [onePreact],
    metafile: true,
  });
}

/**
 * Builds the console with Bun's bundler: the Preact application as ES modules, split so that bpmn-js (imported
 * lazily by the diagram pages) lands in a chunk of its own that only those pages fetch. Names carry a content hash, so
 * the files can be cached for good; the page itself (`/`) is not cached.
 */
export async function buildConsole(): Promise<Map<string, Asset>> {
  const out = await bundleConsole();
  if (!out.success) throw new AggregateError(out.logs, "console build failed");
  const assets = new Map<string, Asset>();
  for (const o of out.outputs) {
    const name = o.path.replace(/^\.\//, "");
    assets.set(name, { bytes: new Uint8Array(await o.arrayBuffer()), type: typeOf(name) });
  }
  const css = new Uint8Array(await Bun.file(STYLES).arrayBuffer());
  const cssName = `styles-${Bun.hash(css).toString(36)}.css`;
  assets.set(cssName, { bytes: css, type: typeOf(cssName) });
  const icon = new Uint8Array(await Bun.file(FAVICON).arrayBuffer());
  const iconName = `favicon-${Bun.hash(icon).toString(36)}.svg`;
  assets.set(iconName, { bytes: icon, type: typeOf(iconName) });
  await Promise.all([...assets].map(async ([name, a]) => assets.set(name, await compress(a))));
  return assets;
}

/** The page: one module script and one stylesheet, both hashed names from the build. */
export function consolePage(assets: Map<string, Asset>): string {
  const names = [...assets.keys()];
  const main = names.find((n) => n.startsWith("main-") && n.endsWith(".js"));
  const css = names.find((n) => n.startsWith("styles-"));
  const icon = names.find((n) => n.startsWith("favicon-"));
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Process console</title>
  <link rel="icon" type="image/svg+xml" href="/assets/${icon}" />
  <link rel="stylesheet" href="/assets/${css}" />
</head>
<body>
  <div id="app"><p class="loading">Loading…</p></div>
  <script type="module" src="/assets/${main}"></script>
</body>
</html>`;
}
