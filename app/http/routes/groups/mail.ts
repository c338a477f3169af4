import { mailInboxesRouter } from "../mail-inboxes";
import { mailRulesRouter } from "../mail-rules";
import { mailDeliveriesRouter } from "../mail-deliveries";

/** Mail-based triggers: inboxes (Admin), rules and their delivery log (Modeler). */
export const mailRouters = () => [mailInboxesRouter(), mailRulesRouter(), mailDeliveriesRouter()];
