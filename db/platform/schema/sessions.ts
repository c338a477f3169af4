import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { users } from "./identity";

/** One row per login; both tokens of that login carry its id as `sid`. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Refresh tokens are stored as SHA-256 hashes; a USED token presented again revokes its session. */
export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    hash: text("hash").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("refresh_tokens_session_idx").on(t.sessionId)],
);

export const passwordResets = sqliteTable("password_resets", {
  hash: text("hash").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expiresAt: text("expires_at").notNull(),
  usedAt: text("used_at"),
  createdAt: text("created_at").notNull(),
});
