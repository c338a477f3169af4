// A writer for the FULL durability crash test: the engine database opened as the service opens it (kind engine,
// SQLITE_SYNCHRONOUS=FULL, background checkpointer with small thresholds so WAL resets happen meanwhile: TRUNCATEs when
// idle, and restarts after catch-ups with the group commits held under continuous writes), 16 callers
// starting and completing one-task instances, printing "done <instanceId>" once a completion is acknowledged. The
// test kills it with SIGKILL mid-stream and checks every printed completion.
import { createProcessRuntime } from "../../app/runtime/bpmn";
import { startCheckpointer } from "../../db/checkpointer";
import { openSqlite } from "../../db/connection";
import { runMigrations } from "../../db/migrate";
import { bpmn, T } from "../fixtures/bpmn/harness";
import { createKernel } from "../../app/runtime/kernel/kernel";

const path = process.argv[2] as string;
const db = openSqlite(path, { kind: "engine", synchronous: "FULL" });
runMigrations(db, "engine");
startCheckpointer({
  dbs: [{ name: "engine", path, connection: db }],
  intervalMs: 5,
  truncateAboveBytes: 64 * 1024,
  restartAboveBytes: 256 * 1024,
});
const rt = createProcessRuntime({ kernel: createKernel({ db }) });
const body = `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>
  <sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>`;
await rt.deploy(T, bpmn("one", body), { fileName: "one.bpmn", createdBy: null });
console.log("ready");
const actor = { userId: "u1", channel: "REST" };
await Promise.all(
  Array.from({ length: 16 }, async () => {
    for (;;) {
      const inst = await rt.startInstance(T, { definitionKey: "one" });
      await rt.completeTask(T, inst.activeTasks[0].id, { ok: true }, actor);
      process.stdout.write(`done ${inst.id}\n`);
    }
  }),
);
