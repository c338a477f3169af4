// A service process for crash tests: opens the platform on DATA_DIR (and the AI_* settings of its environment) and
// runs the due service jobs, as the executor of a real start would. The test kills it with SIGKILL mid-job.
import { loadConfig } from "../../app/platform/config";
import { createPlatform } from "../../app/platform/platform";

const platform = createPlatform({ config: loadConfig(), log: () => {} });
platform.ports.serviceJobs.recover();
console.log("started");
await platform.ports.serviceJobs.runDue();
console.log("done");
