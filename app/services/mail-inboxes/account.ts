import { eq } from "drizzle-orm";
import { tenantVariables } from "../../../db/tenant/schema";
import type { mailInboxes } from "../../../db/tenant/schema";
import type { ImapAccount } from "../../outbound/imap";
import type { TenantDb } from "../../../tenants/tenant-db-cache";
import { BadRequestError } from "../errors";
import { storedValue } from "../tenant-variables/sealing";

/** Tenant variable listing internal hosts an inbox may reach (comma-separated; same rule as data sources). */
export const MAIL_ALLOWED_PRIVATE_HOSTS_VARIABLE = "MAIL_ALLOWED_PRIVATE_HOSTS";

type InboxRow = typeof mailInboxes.$inferSelect;

function variable(db: TenantDb, name: string) {
  return db.orm.select().from(tenantVariables).where(eq(tenantVariables.name, name)).get();
}

/** The account of an inbox with its password resolved from the secret variable (400 when it is missing or not secret). */
export function accountOf(
  db: TenantDb,
  inbox: Pick<InboxRow, "host" | "port" | "tlsMode" | "username" | "passwordVariable">,
): ImapAccount {
  const secret = variable(db, inbox.passwordVariable);
  if (!secret || !secret.secret) {
    throw new BadRequestError(
      `passwordVariable must name a secret tenant variable; '${inbox.passwordVariable}' is not one`,
      [{ field: "passwordVariable", message: "not a secret tenant variable" }],
    );
  }
  const hosts = variable(db, MAIL_ALLOWED_PRIVATE_HOSTS_VARIABLE);
  const allowed = (hosts ? storedValue(db, hosts.value) : "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return {
    host: inbox.host,
    port: inbox.port,
    tlsMode: inbox.tlsMode as ImapAccount["tlsMode"],
    username: inbox.username,
    password: storedValue(db, secret.value),
    allowedPrivate: allowed,
  };
}
