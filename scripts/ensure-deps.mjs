// Installs dependencies on a fresh checkout so `npm start` and `npm test` work with only Node and npm.
import { existsSync } from "node:fs";
import { execSync } from "node:child_process";

const marker = "node_modules/bun/package.json";
const needed = ["node_modules/hono/package.json", "node_modules/drizzle-orm/package.json", marker];
const run = (cmd) => {
  console.log(`[setup] installing dependencies: ${cmd}`);
  execSync(cmd, { stdio: "inherit" });
};
if (needed.some((p) => !existsSync(p))) {
  if (!existsSync("package-lock.json")) run("npm install --no-audit --no-fund");
  else {
    try {
      run("npm ci --no-audit --no-fund");
    } catch {
      // Some registries (mirrors) lack the other platforms' builds of optional packages (Biome's CLI binaries), so the
      // lock cannot list them and `npm ci` refuses it; `npm install` installs the same locked versions and skips them.
      run("npm install --no-audit --no-fund");
    }
  }
}
