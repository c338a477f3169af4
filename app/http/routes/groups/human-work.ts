import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { formsRouter } from "../forms";

/** Routers of the human-work area (one folder per resource under app/http/routes/). */
export const humanWorkRouters = (): OpenAPIHono<AppEnv>[] => [formsRouter()];
