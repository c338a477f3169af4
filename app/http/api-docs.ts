import { dirname, join } from "node:path";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./env";

type Doc = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;
type Operation = { operationId?: string };

const camel = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * `get /api/a/tasks/{id}` → `getTasksById`, `post /api/admin/tenants` → `postAdminTenants`: one stable id per
 * operation, derived in one place so clients generated from the document get the same names on every build. A route may
 * still name its own `operationId`; a collision fails the build of the document (the API-docs test catches it).
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split("/")
    .filter((seg) => seg && seg !== "api" && seg !== "a")
    .map((seg) => (seg.startsWith("{") ? `By${camel(seg.slice(1, -1))}` : seg))
    .flatMap((seg) => seg.split(/[-_.]/))
    .map(camel);
  return method.toLowerCase() + words.join("");
}

export function withOperationIds(doc: Doc): Doc {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      if (typeof op !== "object" || op === null) continue;
      op.operationId ??= operationIdOf(method, path);
      const other = seen.get(op.operationId);
      if (other) throw new Error(`operationId ${op.operationId} names both ${other} and ${method} ${path}`);
      seen.set(op.operationId, `${method} ${path}`);
    }
  }
  return doc;
}

/** The folder of the swagger-ui-dist package (its own `absolutePath()` has no type declarations). */
const DIST = dirname(require.resolve("swagger-ui-dist/package.json"));
const ASSETS = new Set([
  "swagger-ui.css",
  "swagger-ui-bundle.js",
  "swagger-ui-standalone-preset.js",
  "favicon-32x32.png",
]);
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Process Management Service API</title>
  <link rel="stylesheet" href="/swagger-ui/swagger-ui.css" />
  <link rel="icon" href="/swagger-ui/favicon-32x32.png" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger-ui/swagger-ui-bundle.js"></script>
  <script src="/swagger-ui/init.js"></script>
</body>
</html>`;
const INIT = `window.ui = SwaggerUIBundle({ url: "/v3/api-docs", dom_id: "#swagger-ui", deepLinking: true });`;

/**
 * The OpenAPI document at /v3/api-docs (operation ids filled in, built once) and the interactive page at /swagger-ui,
 * served entirely from the swagger-ui-dist package: the page loads nothing from a CDN and works offline.
 */
export function registerApiDocs(
  app: OpenAPIHono<AppEnv>,
  config: Parameters<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>[0],
) {
  let doc: Doc | null = null;
  app.get("/v3/api-docs", (c) => c.json((doc ??= withOperationIds(app.getOpenAPI31Document(config)))));
  app.get("/swagger-ui", (c) => c.html(PAGE));
  app.get("/swagger-ui/init.js", (c) => c.body(INIT, 200, { "content-type": "text/javascript; charset=utf-8" }));
  app.get("/swagger-ui/:file", (c) => {
    const file = c.req.param("file");
    if (!ASSETS.has(file)) return c.notFound();
    return new Response(Bun.file(join(DIST, file)), {
      headers: { "cache-control": "public, max-age=86400" },
    });
  });
}
