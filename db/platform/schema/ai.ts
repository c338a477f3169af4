import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { knowledgeTables } from "../../knowledge-tables";

/** Global knowledge bases (SUPER_ADMIN writes them, every tenant reads them). */
export const {
  knowledgeBases: globalKnowledgeBases,
  kbDocuments: globalKbDocuments,
  kbChunks: globalKbChunks,
  kbIvfIndexes: globalKbIvfIndexes,
} = knowledgeTables();

/** One row per model call: who, for what, which model, how many tokens, how long. */
export const aiUsage = sqliteTable(
  "ai_usage",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id"),
    /** USER, API_KEY or SYSTEM (indexing counts against the tenant, not a user). */
    actorKind: text("actor_kind").notNull(),
    userId: text("user_id"),
    apiKeyId: text("api_key_id"),
    feature: text("feature").notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull(),
    outputTokens: integer("output_tokens").notNull(),
    durationMs: integer("duration_ms").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("ai_usage_tenant_idx").on(t.tenantId, t.createdAt),
    index("ai_usage_user_idx").on(t.userId, t.createdAt),
  ],
);

/** Per-tenant AI settings kept apart from the tenant record: the monthly token quota SUPER_ADMIN sets. */
export const tenantAiQuotas = sqliteTable("tenant_ai_quotas", {
  tenantId: text("tenant_id").primaryKey(),
  /** Tokens per calendar month (UTC); no row = never configured. */
  monthlyTokens: integer("monthly_tokens").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** The retrieval settings of /admin/rag-config: one row, absent = the defaults. */
export const ragConfig = sqliteTable("rag_config", {
  id: integer("id").primaryKey(),
  settings: text("settings").notNull(),
  updatedAt: text("updated_at").notNull(),
});
