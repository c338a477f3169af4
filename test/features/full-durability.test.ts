import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProcessRuntime } from "../../app/runtime/bpmn";
import { closeSqlite, openSqlite } from "../../db/connection";
import { runMigrations } from "../../db/migrate";
import { ALL, bpmn, T } from "../fixtures/bpmn/harness";
import { createKernel } from "../../app/runtime/kernel/kernel";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempPath = () => {
  const d = mkdtempSync(join(tmpdir(), "full-durability-"));
  dirs.push(d);
  return join(d, "engine.sqlite");
};
const oneTask = bpmn(
  "one",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>
  <sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
);
const actor = { userId: "u1", channel: "REST" };
/** Waits until an fsync is held at the gate; fails (rather than hangs) when none comes. */
async function held(gates: unknown[]): Promise<void> {
  const until = Date.now() + 5000;
  while (gates.length === 0 && Date.now() < until) await Bun.sleep(1);
  expect(gates.length).toBeGreaterThan(0);
}

describe("SQLITE_SYNCHRONOUS=FULL on the engine database", () => {
  test("a command is acknowledged only after the off-loop fsync of the WAL, and concurrent commands share it", async () => {
    const path = tempPath();
    const db = openSqlite(path, { kind: "engine", synchronous: "FULL" });
    runMigrations(db, "engine");
    const rt = createProcessRuntime({ kernel: createKernel({ db }) });
    await rt.deploy(T, oneTask, { fileName: "one.bpmn", createdBy: null });
    await rt.startInstance(T, { definitionKey: "one" }); // opens the WAL's handle
    // Hold every fdatasync until released, counting them.
    const probe = await open(path, "r");
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const original = proto.datasync;
    let syncs = 0;
    const gates: (() => void)[] = [];
    proto.datasync = function (this: unknown) {
      syncs++;
      return new Promise<void>((release) => gates.push(release)).then(() => original.call(this));
    };
    try {
      let acknowledged = 0;
      const starts = Array.from({ length: 20 }, () =>
        rt.startInstance(T, { definitionKey: "one" }).then((r) => {
          acknowledged++;
          return r;
        }),
      );
      await held(gates);
      await Bun.sleep(50);
      // Committed (visible to a reader of the connection) but not acknowledged while its fsync is held.
      expect(rt.listInstances(T, ALL).totalElements).toBe(21);
      expect(acknowledged).toBe(0);
      expect(syncs).toBe(1);
      gates.shift()?.();
      const started = await Promise.all(starts);
      expect(acknowledged).toBe(20);
      expect(syncs).toBe(1); // 20 commands of one group, one fsync
      // A completion's answer waits for its own fsync too.
      let done = false;
      const completion = rt.completeTask(T, started[0].activeTasks[0].id, {}, actor).then(() => (done = true));
      await held(gates);
      await Bun.sleep(20);
      expect(done).toBe(false);
      gates.shift()?.();
      await completion;
      expect(done).toBe(true);
    } finally {
      proto.datasync = original;
      for (const g of gates) g();
      await closeSqlite(db);
    }
  });

  test("every completion acknowledged before a SIGKILL is there after it (checkpointer running, WAL resets meanwhile)", async () => {
    const path = tempPath();
    const child = Bun.spawn([process.execPath, join(import.meta.dir, "../harness/full-durability-child.ts"), path], {
      stdout: "pipe",
      stderr: "inherit",
    });
    const acknowledged: string[] = [];
    const reader = child.stdout.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    const until = Date.now() + 20_000;
    while (acknowledged.length < 1500 && Date.now() < until) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const l of lines) if (l.startsWith("done ")) acknowledged.push(l.slice(5));
    }
    child.kill("SIGKILL");
    await child.exited;
    expect(acknowledged.length).toBeGreaterThan(200);
    const db = openSqlite(path);
    try {
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      const rt = createProcessRuntime({ kernel: createKernel({ db }) });
      const missing = acknowledged.filter((id) => !rt.getInstance(T, id).ended);
      expect(missing).toEqual([]);
    } finally {
      db.close();
    }
  });
});
