import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";

/** Routers of the content area (one folder per resource under app/http/routes/). */
export const contentRouters = (): OpenAPIHono<AppEnv>[] => [];
