// npm run backup -- --to DIR [--data DIR]: an online, consistent snapshot of the data directory (see docs/operations.md).
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { backupDataDir } from "../app/platform/backup/snapshot";

const { values } = parseArgs({ options: { to: { type: "string" }, data: { type: "string" } } });
if (!values.to) {
  console.error("usage: npm run backup -- --to DIR [--data DATA_DIR]");
  process.exit(2);
}
const dataDir = resolve(values.data ?? (process.env.DATA_DIR || "./data"));
const t0 = performance.now();
try {
  const m = backupDataDir(dataDir, resolve(values.to));
  const bytes = [...m.databases, ...m.files].reduce((n, e) => n + e.bytes, 0);
  console.log(
    `[backup] ${m.databases.length} databases (integrity ok) and ${m.files.length} files, ${bytes} bytes, ` +
      `into ${resolve(values.to)} in ${Math.round(performance.now() - t0)} ms`,
  );
} catch (e) {
  console.error(`[backup] failed: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
