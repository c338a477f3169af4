import { sqliteTable, text, integer, primaryKey } from "drizzle-orm/sqlite-core";

/** Configuration variables of one process (e.g. an e-mail address, a threshold); a secret's value is never returned. */
export const processVariables = sqliteTable(
  "process_variables",
  {
    processKey: text("process_key").notNull(),
    name: text("name").notNull(),
    value: text("value").notNull(),
    secret: integer("secret", { mode: "boolean" }).notNull().default(false),
    description: text("description"),
    updatedBy: text("updated_by"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.processKey, t.name] })],
);
