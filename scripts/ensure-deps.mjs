// Installs dependencies on a fresh checkout so `npm start` and `npm test` work with only Node and npm.
// Quiet on purpose: npm's warnings (an older Node than the `ai` packages declare, install scripts it did not run) say
// nothing a first-time user can act on, so npm runs at its error level and its output is shown only if it fails.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

const marker = "node_modules/bun/package.json";
const needed = ["node_modules/hono/package.json", "node_modules/drizzle-orm/package.json", marker];

/** Runs one npm install command; true when it succeeded. Its output is kept for the failure message. */
function npm(args) {
  const r = spawnSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  return { ok: r.status === 0, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

if (needed.some((p) => !existsSync(p))) {
  console.log("[setup] first run: installing dependencies with npm (about a minute)...");
  const started = Date.now();
  // `npm ci` installs exactly the lock; a mirror that lacks some platform's optional package (Biome's CLI binaries)
  // makes it refuse the lock, and `npm install` then installs the same locked versions and skips those.
  let r = npm(existsSync("package-lock.json") ? ["ci"] : ["install"]);
  if (!r.ok && existsSync("package-lock.json")) r = npm(["install"]);
  if (!r.ok) {
    console.error(r.output);
    console.error("[setup] npm could not install the dependencies (its output is above).");
    process.exit(1);
  }
  console.log(`[setup] dependencies installed in ${Math.round((Date.now() - started) / 1000)} s`);
}
