// A separate service process reading the inboxes once, killed with SIGKILL by itself as soon as the first message
// of this run has started an instance: the kill -9 mid-batch of the mail tests. Usage: bun mail-child.ts <dataDir> <jwtSecret> <tenantId>
import { Database } from "bun:sqlite";
import { loadConfig } from "../../app/platform/config";
import { createPlatform } from "../../app/platform/platform";
import { tenantDbPath } from "../../tenants/paths";

const [dataDir, jwtSecret, tenantId] = process.argv.slice(2) as [string, string, string];
const platform = createPlatform({ config: loadConfig({ DATA_DIR: dataDir, JWT_SECRET: jwtSecret }), log: () => {} });
const watch = new Database(tenantDbPath(dataDir, tenantId), { readonly: true });
const startedCount = () =>
  (watch.query("SELECT count(*) AS n FROM mail_deliveries WHERE outcome = 'STARTED'").get() as { n: number }).n;
const before = startedCount();
setInterval(() => {
  if (startedCount() > before) process.kill(process.pid, "SIGKILL");
}, 1);
await platform.mailPoller.pollAll({ force: true });
process.exit(0);
