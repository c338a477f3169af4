import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { cmsCollectionsRouter } from "../cms-collections";
import { cmsRecordsRouter } from "../cms-records";
import { attachmentsRouter } from "../attachments";
import { documentTypesRouter } from "../document-types";

/** Routers of the content area (one folder per resource under app/http/routes/). */
export const contentRouters = (): OpenAPIHono<AppEnv>[] => [
  cmsCollectionsRouter(),
  cmsRecordsRouter(),
  attachmentsRouter(),
  documentTypesRouter(),
];
