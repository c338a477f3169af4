import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { formsRouter } from "../forms";
import { processRolesRouter } from "../process-roles";
import { adminProcessRolesRouter } from "../admin-process-roles";
import { membersRouter } from "../members";
import { notificationsRouter } from "../notifications";
import { tenantVariablesRouter } from "../tenant-variables";
import { dataSourcesRouter } from "../datasources";
import { tasksRouter } from "../tasks";

/** Routers of the human-work area (one folder per resource under app/http/routes/). */
export const humanWorkRouters = (): OpenAPIHono<AppEnv>[] => [
  tasksRouter(),
  formsRouter(),
  processRolesRouter(),
  adminProcessRolesRouter(),
  membersRouter(),
  notificationsRouter(),
  tenantVariablesRouter(),
  dataSourcesRouter(),
];
