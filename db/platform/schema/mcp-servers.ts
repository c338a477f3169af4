import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Remote MCP servers (Streamable HTTP) whose tools agents may call, registered by a SUPER_ADMIN. The auth header's
 * value is stored sealed (AES-GCM, key derived from the JWT secret) and never answered; `allowed_tenants` is a JSON
 * array of the tenant ids whose agents may use the server.
 */
export const mcpServers = sqliteTable(
  "mcp_servers",
  {
    id: text("id").primaryKey(),
    /** Lower-case slug, fixed at creation: it is part of the tool names offered to models (`mcp_<name>_<tool>`). */
    name: text("name").notNull(),
    description: text("description"),
    url: text("url").notNull(),
    authHeaderName: text("auth_header_name"),
    authHeaderValueSealed: text("auth_header_value_sealed"),
    allowedTenants: text("allowed_tenants").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("mcp_servers_name_uq").on(t.name)],
);
