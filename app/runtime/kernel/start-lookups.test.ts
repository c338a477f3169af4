import { describe, expect, test } from "bun:test";
import { bpmn, makeRuntime, T } from "../../../test/fixtures/bpmn/harness";
import { createTenantPurge } from "./tenant-purge";

const model = (name: string) =>
  bpmn("p", `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="t"/><userTask id="t" name="${name}"/>`);

// A start reads its version and the key's suspension from what the kernel keeps: every change must reach it at once.
describe("the start lookups the kernel keeps", () => {
  test("follow deploys, publishing, suspension, a rolled-back change and the tenant purge", async () => {
    const { rt, db, kernel } = makeRuntime();
    const start = async () => (await rt.startInstance(T, { definitionKey: "p" })).activeTasks[0]?.name;
    await expect(start()).rejects.toThrow(/not found/);
    const v1 = (await rt.deploy(T, model("One"), { fileName: "a.bpmn", createdBy: null })).definitions[0]!;
    expect(await start()).toBe("One");
    await rt.deploy(T, model("Two"), { fileName: "a.bpmn", createdBy: null });
    expect(await start()).toBe("Two");
    await rt.publishDefinition(T, "p", v1.definitionId);
    expect(await start()).toBe("One");
    await rt.suspendDefinition(T, "p");
    await expect(start()).rejects.toThrow(/suspended/);
    await rt.activateDefinition(T, "p");
    expect(await start()).toBe("One");
    // A publish whose transaction fails changes nothing, kept lookups included.
    const v2 = rt.definitionVersions(T, "p").find((v) => v.version === 2)!;
    db.exec("CREATE TEMP TRIGGER fail AFTER UPDATE ON definitions BEGIN SELECT RAISE(ABORT, 'fail'); END");
    await expect(rt.publishDefinition(T, "p", v2.definitionId)).rejects.toThrow("fail");
    db.exec("DROP TRIGGER fail");
    expect(await start()).toBe("One");
    const purge = createTenantPurge(kernel);
    while ((await purge(T, 100)) > 0);
    await expect(start()).rejects.toThrow(/not found/);
  });

  test("a deploy that rolls back after a start lookup was read again in it leaves the committed version startable", async () => {
    const { rt, db, kernel } = makeRuntime();
    await rt.deploy(T, model("One"), { fileName: "a.bpmn", createdBy: null });
    const start = async () => (await rt.startInstance(T, { definitionKey: "p" })).activeTasks[0]?.name;
    expect(await start()).toBe("One");
    // One file, two processes: p's start events are refreshed first (reading p's startable version, the new one,
    // inside the transaction), then q's timer start fails to be scheduled and the whole deploy rolls back.
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="test">
  <process id="p" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="t"/><userTask id="t" name="Two"/></process>
  <process id="q" isExecutable="true"><startEvent id="ts"><timerEventDefinition><timeCycle>R/PT1H</timeCycle></timerEventDefinition></startEvent><sequenceFlow id="g" sourceRef="ts" targetRef="e"/><endEvent id="e"/></process>
</definitions>`;
    db.exec("CREATE TEMP TRIGGER fail AFTER INSERT ON jobs BEGIN SELECT RAISE(ABORT, 'no timers today'); END");
    await expect(rt.deploy(T, file, { fileName: "b.bpmn", createdBy: null })).rejects.toThrow("no timers today");
    db.exec("DROP TRIGGER fail");
    expect(rt.definitionVersions(T, "p")).toHaveLength(1);
    expect(await start()).toBe("One");
  });

  test("the type kept per key follows deploys and the purge, and answers only its own tenant", async () => {
    const { rt, db, kernel } = makeRuntime();
    expect(rt.kindOfDefinitionKey(T, "p")).toBeNull(); // kept as unknown
    await rt.deploy(T, model("One"), { fileName: "a.bpmn", createdBy: null });
    expect(rt.kindOfDefinitionKey(T, "p")).toBe("BPMN");
    expect(rt.kindOfDefinitionKey("tenant-b", "p")).toBeNull();
    const purge = createTenantPurge(kernel);
    while ((await purge(T, 100)) > 0);
    expect(rt.kindOfDefinitionKey(T, "p")).toBeNull();
  });

  test("the type kept per version answers only its own tenant", async () => {
    const { rt } = makeRuntime();
    const v = (await rt.deploy(T, model("One"), { fileName: "a.bpmn", createdBy: null })).definitions[0]!;
    expect(rt.kindOfDefinition(T, v.definitionId)).toBe("BPMN"); // now kept
    expect(rt.kindOfDefinition("tenant-b", v.definitionId)).toBeNull();
  });
});
