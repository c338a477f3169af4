import { defineConfig } from "drizzle-kit";
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/engine/schema/index.ts",
  out: "./db/migrations/engine",
});
