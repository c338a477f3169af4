import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";

/** Routers of the cases area (one folder per resource under app/http/routes/). */
export const casesRouters = (): OpenAPIHono<AppEnv>[] => [];
