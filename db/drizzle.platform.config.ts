import { defineConfig } from "drizzle-kit";
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/platform/schema/index.ts",
  out: "./db/migrations/platform",
});
