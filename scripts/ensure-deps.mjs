// Installs dependencies on a fresh checkout so `npm start` and `npm test` work with only Node and npm.
import { existsSync } from "node:fs";
import { execSync } from "node:child_process";

const marker = "node_modules/bun/package.json";
const needed = ["node_modules/hono/package.json", "node_modules/drizzle-orm/package.json", marker];
if (needed.some((p) => !existsSync(p))) {
  const cmd = existsSync("package-lock.json") ? "npm ci --no-audit --no-fund" : "npm install --no-audit --no-fund";
  console.log(`[setup] installing dependencies: ${cmd}`);
  execSync(cmd, { stdio: "inherit" });
}
