import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { tenants } from "./identity";

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Public lookup part of the key, shown in listings. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key; keys are 192-bit random so a fast hash is enough. */
    hash: text("hash").notNull(),
    /** Raw JSON text; parsed fail-closed on every request. */
    scopes: text("scopes"),
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull().default(100),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [index("api_keys_prefix_idx").on(t.prefix), index("api_keys_tenant_idx").on(t.tenantId)],
);
