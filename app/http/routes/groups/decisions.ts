import { decisionsRouter } from "../decisions";
import { adminDmnTemplatesRouter } from "../admin-dmn-templates";

/** Decision tables and their global templates. */
export const decisionsRouters = () => [decisionsRouter(), adminDmnTemplatesRouter()];
