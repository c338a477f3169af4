import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * IMAP accounts read for mail rules. PASSWORD: the password is the name of a secret tenant variable, never the value.
 * OAUTH2 (SASL XOAUTH2): the client secret, refresh token and current access token are stored sealed in the row.
 */
export const mailInboxes = sqliteTable("mail_inboxes", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  host: text("host").notNull(),
  port: integer("port").notNull(),
  /** TLS (implicit), STARTTLS or NONE. */
  tlsMode: text("tls_mode", { enum: ["TLS", "STARTTLS", "NONE"] }).notNull(),
  username: text("username").notNull(),
  authMethod: text("auth_method", { enum: ["PASSWORD", "OAUTH2"] })
    .notNull()
    .default("PASSWORD"),
  /** PASSWORD only. */
  passwordVariable: text("password_variable"),
  oauthProvider: text("oauth_provider", { enum: ["MICROSOFT_365", "GOOGLE", "CUSTOM"] }),
  oauthGrant: text("oauth_grant", { enum: ["REFRESH_TOKEN", "CLIENT_CREDENTIALS"] }),
  oauthClientId: text("oauth_client_id"),
  oauthTokenUrl: text("oauth_token_url"),
  oauthScope: text("oauth_scope"),
  /** Sealed (sealSecret). */
  oauthClientSecret: text("oauth_client_secret"),
  /** Sealed; replaced when the token endpoint rotates it. */
  oauthRefreshToken: text("oauth_refresh_token"),
  /** Sealed; the last access token, used until shortly before `oauthAccessExpiresAt`. */
  oauthAccessToken: text("oauth_access_token"),
  oauthAccessExpiresAt: text("oauth_access_expires_at"),
  folder: text("folder").notNull(),
  pollIntervalSeconds: integer("poll_interval_seconds").notNull(),
  /** FLAG marks a read message \Seen; MOVE moves it to `moveToFolder`. */
  afterRead: text("after_read", { enum: ["FLAG", "MOVE"] }).notNull(),
  moveToFolder: text("move_to_folder"),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  status: text("status", { enum: ["ACTIVE", "ERROR"] }).notNull(),
  lastError: text("last_error"),
  lastPollAt: text("last_poll_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** A rule of a definition: which messages start it and how variables are taken from them. */
export const mailRules = sqliteTable("mail_rules", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  definitionKey: text("definition_key").notNull(),
  /** null: messages of every inbox. */
  inboxId: text("inbox_id"),
  priority: integer("priority").notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  /** JSON: { from?, to?, subjectContains?, subjectRegex?, hasAttachment? }. */
  match: text("match").notNull(),
  /** JSON: { subject?, from?, date?, text?: variable names; extract?: [{ source, pattern }] }. */
  mapping: text("mapping").notNull(),
  attachmentDocumentTypeId: text("attachment_document_type_id"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** Every message read; the row is written before any effect, its unique key makes a message count once. */
export const mailDeliveries = sqliteTable(
  "mail_deliveries",
  {
    id: text("id").primaryKey(),
    inboxId: text("inbox_id").notNull(),
    messageId: text("message_id").notNull(),
    fromAddress: text("from_address"),
    subject: text("subject"),
    receivedAt: text("received_at"),
    ruleId: text("rule_id"),
    /** PENDING while handled, then STARTED, CORRELATED (a running instance got it), NO_MATCH, NO_RULE or FAILED. */
    outcome: text("outcome", { enum: ["PENDING", "STARTED", "CORRELATED", "NO_MATCH", "NO_RULE", "FAILED"] }).notNull(),
    instanceId: text("instance_id"),
    businessKey: text("business_key"),
    reason: text("reason"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("mail_deliveries_message").on(t.inboxId, t.messageId),
    index("mail_deliveries_created").on(t.createdAt),
  ],
);
