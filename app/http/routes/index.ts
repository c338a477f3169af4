import { platformRouters } from "./groups/platform";
import { contentRouters } from "./groups/content";
import { humanWorkRouters } from "./groups/human-work";
import { processRouters } from "./groups/process";
import { decisionsRouters } from "./groups/decisions";
import { casesRouters } from "./groups/cases";
import { knowledgeRouters } from "./groups/knowledge";
import { mailRouters } from "./groups/mail";

/** Every resource router, mounted under /api; each area lists its routers in its own group file. */
export function allRouters() {
  return [
    ...platformRouters(),
    ...contentRouters(),
    ...humanWorkRouters(),
    ...processRouters(),
    ...decisionsRouters(),
    ...casesRouters(),
    ...knowledgeRouters(),
    ...mailRouters(),
  ];
}
