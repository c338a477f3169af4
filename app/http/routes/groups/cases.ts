import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { casePlanItemsRouter } from "../case-plan-items";

/** Routers of the cases area (one folder per resource under app/http/routes/). */
export const casesRouters = (): OpenAPIHono<AppEnv>[] => [casePlanItemsRouter()];
