import { definitionsRouter } from "../definitions";
import { instancesRouter } from "../instances";
import { historyRouter } from "../history";
import { dashboardRouter } from "../dashboard";
import { delegatesRouter } from "../delegates";
import { adminTenantDefinitionsRouter } from "../admin-tenant-definitions";
import { instanceAdhocRouter } from "../instance-adhoc";
import { processEventsRouter } from "../process-events";
import { adminProcessTemplatesRouter } from "../admin-process-templates";
import { processTemplatesRouter } from "../process-templates";
import { jobsRouter } from "../jobs";

/** Process definitions, instances, history, dashboard and delegates. */
export const processRouters = () => [
  definitionsRouter(),
  instancesRouter(),
  historyRouter(),
  dashboardRouter(),
  delegatesRouter(),
  adminTenantDefinitionsRouter(),
  instanceAdhocRouter(),
  processEventsRouter(),
  adminProcessTemplatesRouter(),
  processTemplatesRouter(),
  jobsRouter(),
];
