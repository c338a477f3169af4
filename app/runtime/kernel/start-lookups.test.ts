import { describe, expect, test } from "bun:test";
import { bpmn, makeRuntime, T } from "../../../test/fixtures/bpmn/harness";
import { createTenantPurge } from "./tenant-purge";

const model = (name: string) =>
  bpmn("p", `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="t"/><userTask id="t" name="${name}"/>`);

// A start reads its version and the key's suspension from what the kernel keeps: every change must reach it at once.
describe("the start lookups the kernel keeps", () => {
  test("follow deploys, publishing, suspension, a rolled-back change and the tenant purge", async () => {
    const { rt, db } = makeRuntime();
    const start = async () => (await rt.startInstance(T, { definitionKey: "p" })).activeTasks[0]?.name;
    await expect(start()).rejects.toThrow(/not found/);
    const v1 = (await rt.deploy(T, model("One"), { fileName: "a.bpmn", createdBy: null })).definitions[0]!;
    expect(await start()).toBe("One");
    await rt.deploy(T, model("Two"), { fileName: "a.bpmn", createdBy: null });
    expect(await start()).toBe("Two");
    rt.publishDefinition(T, "p", v1.definitionId);
    expect(await start()).toBe("One");
    rt.suspendDefinition(T, "p");
    await expect(start()).rejects.toThrow(/suspended/);
    rt.activateDefinition(T, "p");
    expect(await start()).toBe("One");
    // A publish whose transaction fails changes nothing, kept lookups included.
    const v2 = rt.definitionVersions(T, "p").find((v) => v.version === 2)!;
    db.exec("CREATE TEMP TRIGGER fail AFTER UPDATE ON definitions BEGIN SELECT RAISE(ABORT, 'fail'); END");
    expect(() => rt.publishDefinition(T, "p", v2.definitionId)).toThrow("fail");
    db.exec("DROP TRIGGER fail");
    expect(await start()).toBe("One");
    const purge = createTenantPurge(db);
    while (db.transaction(() => purge(T, 100))() > 0);
    await expect(start()).rejects.toThrow(/not found/);
  });
});
