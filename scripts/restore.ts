// npm run restore -- --from DIR [--data DIR]: restores a backup into an empty data directory (see docs/operations.md).
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { restoreDataDir } from "../app/platform/backup/restore";

const { values } = parseArgs({ options: { from: { type: "string" }, data: { type: "string" } } });
if (!values.from) {
  console.error("usage: npm run restore -- --from BACKUP_DIR [--data DATA_DIR]");
  process.exit(2);
}
const dataDir = resolve(values.data ?? (process.env.DATA_DIR || "./data"));
try {
  const m = restoreDataDir(resolve(values.from), dataDir);
  console.log(
    `[restore] ${m.databases.length} databases and ${m.files.length} files into ${dataDir} (backup of ${m.startedAt})`,
  );
} catch (e) {
  console.error(`[restore] failed: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
