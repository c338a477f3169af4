import { tenantSecurity } from "../../errors/openapi-responses";
import { requireManagerOrModeler } from "../../middleware/roles";

// Every knowledge route: Manager or Modeler; a USER and an API key (no membership) get 403.
export const kbCommon = { tags: ["knowledge bases"], security: tenantSecurity, middleware: requireManagerOrModeler };
