import { describe, expect, test } from "bun:test";
import { writeGate } from "../../../db/write-gate";
import { bpmn, makeRuntime, T } from "../../../test/fixtures/bpmn/harness";
import { cmmn, makeCases } from "../../../test/fixtures/cmmn/harness";

// While the checkpointer holds the engine's writes (the WAL's last frames being copied, or a TRUNCATE), a writer that
// can await waits for the release rather than for SQLite's lock in the busy handler, which would stall the event loop.
describe("writers that wait while the checkpointer holds the engine's writes", () => {
  test("a BPMN deploy is written only once the writes are released", async () => {
    const { rt, db } = makeRuntime();
    const gate = writeGate(db);
    gate.hold();
    let done = false;
    const deploy = rt
      .deploy(T, bpmn("held", '<startEvent id="s"/>'), { fileName: "h.bpmn", createdBy: null })
      .then(() => (done = true));
    await Bun.sleep(30);
    expect(done).toBe(false);
    expect(rt.listDefinitions(T)).toEqual([]);
    gate.release();
    await deploy;
    expect(rt.listDefinitions(T).map((d) => d.key)).toEqual(["held"]);
  });

  test("a CMMN deploy likewise", async () => {
    const h = makeCases();
    const gate = writeGate(h.db);
    gate.hold();
    let done = false;
    const model = cmmn("heldCase", '<planItem id="pi" definitionRef="m"/><milestone id="m" name="M"/>');
    const deploy = h.rt.deploy(T, model, { fileName: "h.cmmn", createdBy: null }).then(() => (done = true));
    await Bun.sleep(30);
    expect(done).toBe(false);
    expect(h.db.query("SELECT count(*) AS n FROM definitions").get()).toEqual({ n: 0 });
    gate.release();
    await deploy;
    expect(h.db.query("SELECT count(*) AS n FROM definitions").get()).toEqual({ n: 1 });
  });
});
