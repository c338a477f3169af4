import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";

/** Routers of the decisions area (one folder per resource under app/http/routes/). */
export const decisionsRouters = (): OpenAPIHono<AppEnv>[] => [];
