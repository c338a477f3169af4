import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** OIDC connections (authentication only); the client secret is stored sealed (AES-GCM, key from the JWT secret). */
export const ssoConnections = sqliteTable(
  "sso_connections",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    issuer: text("issuer").notNull(),
    clientId: text("client_id").notNull(),
    clientSecretSealed: text("client_secret_sealed").notNull(),
    /** JSON array of scopes requested besides openid. */
    scopes: text("scopes").notNull(),
    /** JSON array of e-mail domains allowed to sign in. */
    allowedDomains: text("allowed_domains").notNull(),
    autoProvision: integer("auto_provision", { mode: "boolean" }).notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    /** Accept the e-mail claim when the provider never sends email_verified (Microsoft Entra ID); off by default. */
    trustEmailClaim: integer("trust_email_claim", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("sso_connections_name_uq").on(t.name)],
);

/** An authorization in progress: state (key), nonce and PKCE verifier, valid a few minutes, used once. */
export const ssoFlows = sqliteTable(
  "sso_flows",
  {
    state: text("state").primaryKey(),
    connectionId: text("connection_id").notNull(),
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    /** sha256 of the browser-binding cookie set at authorize: the callback must come from the same browser. */
    browserHash: text("browser_hash").notNull().default(""),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sso_flows_expires").on(t.expiresAt)],
);

/** One-time codes handed to the browser after a callback; stored hashed, exchanged once for a session. */
export const ssoCodes = sqliteTable("sso_codes", {
  codeHash: text("code_hash").primaryKey(),
  userId: text("user_id").notNull(),
  expiresAt: integer("expires_at").notNull(),
});
