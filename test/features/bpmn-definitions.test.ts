import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

const oneTask = (id: string, name = "Step") =>
  bpmn(
    id,
    `<startEvent id="s" flowable:formKey="startForm"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/>
  <userTask id="t" name="${name}"/><sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
  );
const deploy = (rt: ReturnType<typeof makeRuntime>["rt"], xml: string, tenant = T) =>
  rt.deploy(tenant, xml, { fileName: "f.bpmn", createdBy: "m1" });

describe("deploying definitions", () => {
  test("each deploy creates a new version; new instances start the published version, or the latest when never published", async () => {
    const { rt } = makeRuntime();
    const v1 = await deploy(rt, oneTask("p", "One"));
    const v2 = await deploy(rt, oneTask("p", "Two"));
    expect(v2.definitions[0].version).toBe(2);
    expect((await rt.startInstance(T, { definitionKey: "p" })).activeTasks[0].name).toBe("Two");
    await rt.publishDefinition(T, "p", v1.definitions[0].definitionId);
    expect(rt.definitionVersions(T, "p").map((v) => [v.version, v.published])).toEqual([
      [2, false],
      [1, true],
    ]);
    const v3 = await deploy(rt, oneTask("p", "Three"));
    expect(v3.warnings.join()).toMatch(/version 3 is deployed but version 1 stays published/);
    const i = await rt.startInstance(T, { definitionKey: "p" });
    expect(i).toMatchObject({ version: 1, definitionId: v1.definitions[0].definitionId, type: "BPMN" });
    expect(rt.getDefinition(T, "p")).toMatchObject({
      key: "p",
      latestVersion: 3,
      publishedVersion: 1,
      startFormKey: "startForm",
      suspended: false,
      enabled: true,
    });
    expect(rt.definitionXml(T, "p", v1.definitions[0].definitionId)).toContain('name="One"');
  });

  test("refuses malformed XML with a 400 naming the problem", async () => {
    const { rt } = makeRuntime();
    await expect(deploy(rt, "<definitions><process")).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/Malformed BPMN XML/),
    });
    await expect(deploy(rt, "")).rejects.toThrow(/empty/);
  });

  test("refuses a file without an executable process", async () => {
    const { rt } = makeRuntime();
    const xml = oneTask("p").replace('isExecutable="true"', 'isExecutable="false"');
    await expect(deploy(rt, xml)).rejects.toThrow(/No executable process: 'p' is marked isExecutable="false"/);
  });

  test("refuses a Groovy script task; JavaScript deploys (it runs in the sandbox)", async () => {
    const { rt } = makeRuntime();
    const model = (format: string) =>
      bpmn(
        "js",
        `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="x"/><scriptTask id="x" scriptFormat="${format}"><script>next()</script></scriptTask>`,
      );
    await expect(deploy(rt, model("groovy"))).rejects.toThrow(
      "Process 'js': Script task 'x' uses scriptFormat 'groovy': only FEEL, JUEL and JavaScript scripts are supported",
    );
    expect((await deploy(rt, model("javascript"))).definitions).toHaveLength(1);
  });

  test("refuses expressions that call methods instead of evaluating them", async () => {
    const { rt } = makeRuntime();
    const xml = bpmn(
      "m",
      `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="g"/><exclusiveGateway id="g" default="d"/>
      <sequenceFlow id="c" sourceRef="g" targetRef="e"><conditionExpression>\${orderService.isBig(order)}</conditionExpression></sequenceFlow>
      <sequenceFlow id="d" sourceRef="g" targetRef="e"/><endEvent id="e"/>`,
    );
    await expect(deploy(rt, xml)).rejects.toThrow(/method calls are not supported/);
  });

  test("reports orphans, dead ends, gateways without default and a missing diagram as warnings", async () => {
    const { rt } = makeRuntime();
    const d = await deploy(
      rt,
      bpmn(
        "w",
        `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="g"/>
      <exclusiveGateway id="g"/><sequenceFlow id="a" sourceRef="g" targetRef="t1"><conditionExpression>\${x}</conditionExpression></sequenceFlow>
      <sequenceFlow id="b" sourceRef="g" targetRef="t2"><conditionExpression>\${!x}</conditionExpression></sequenceFlow>
      <userTask id="t1"/><userTask id="t2"/><sequenceFlow id="c" sourceRef="t1" targetRef="e"/><endEvent id="e"/><userTask id="lonely"/>`,
      ),
    );
    const w = d.warnings.join("\n");
    expect(w).toMatch(/userTask 'lonely' is an orphan/);
    expect(w).toMatch(/userTask 't2' is a dead end/);
    expect(w).toMatch(/exclusiveGateway 'g' has no default flow/);
    expect(w).toMatch(/no diagram \(BPMN DI\) section/);
  });

  test("a suspended definition refuses starts until activated", async () => {
    const { rt } = makeRuntime();
    await deploy(rt, oneTask("p"));
    expect((await rt.suspendDefinition(T, "p")).suspended).toBe(true);
    await expect(rt.startInstance(T, { definitionKey: "p" })).rejects.toMatchObject({ code: "CONFLICT" });
    await rt.activateDefinition(T, "p");
    expect((await rt.startInstance(T, { definitionKey: "p" })).ended).toBe(false);
  });

  test("toggling the catalog flag and storing the configuration", async () => {
    const { rt } = makeRuntime();
    await deploy(rt, oneTask("p"));
    expect((await rt.toggleDefinition(T, "p")).enabled).toBe(false);
    expect((await rt.toggleDefinition(T, "p")).enabled).toBe(true);
    expect(rt.getDefinitionConfig(T, "p")).toEqual({
      businessKeyTemplate: null,
      attachmentPolicy: null,
      mcpPolicy: "NONE",
      historyTimeToLive: null,
    });
    const cfg = await rt.putDefinitionConfig(T, "p", {
      businessKeyTemplate: "ORD-${date:yyyy}",
      mcpPolicy: "START_AND_READ",
      attachmentPolicy: { uploadMode: "FORM_ONLY", uploadRoles: ["clerk"], previewRoles: [], replaceRoles: [] },
    });
    expect(cfg).toMatchObject({
      businessKeyTemplate: "ORD-${date:yyyy}",
      mcpPolicy: "START_AND_READ",
      attachmentPolicy: { uploadMode: "FORM_ONLY", uploadRoles: ["clerk"] },
    });
    await expect(rt.putDefinitionConfig(T, "p", { mcpPolicy: "EVERYTHING" as never })).rejects.toThrow(
      /mcpPolicy must be one of NONE, START_AND_READ, START_AND_COMPLETE/,
    );
    await expect(rt.putDefinitionConfig(T, "p", { attachmentPolicy: { uploadMode: "" } as never })).rejects.toThrow(
      /uploadMode is required/,
    );
    expect(rt.getDefinitionConfig(T, "p").mcpPolicy).toBe("START_AND_READ");
  });

  test("unknown keys and versions answer NotFound", async () => {
    const { rt } = makeRuntime();
    expect(() => rt.getDefinition(T, "nope")).toThrow(/not found/);
    await expect(rt.startInstance(T, { definitionKey: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await deploy(rt, oneTask("p"));
    await expect(rt.publishDefinition(T, "p", "bad-id")).rejects.toThrow(/not found/);
  });
});

describe("tenants", () => {
  test("two tenants deploy the same key independently and each sees only its own", async () => {
    const { rt } = makeRuntime();
    await deploy(rt, oneTask("p", "A"), "ta");
    await deploy(rt, oneTask("p", "B1"), "tb");
    await deploy(rt, oneTask("p", "B2"), "tb");
    expect(rt.listDefinitions("ta").map((d) => [d.key, d.latestVersion])).toEqual([["p", 1]]);
    expect(rt.listDefinitions("tb").map((d) => [d.key, d.latestVersion])).toEqual([["p", 2]]);
    const ia = await rt.startInstance("ta", { definitionKey: "p" });
    const ib = await rt.startInstance("tb", { definitionKey: "p" });
    expect(ia.activeTasks[0].name).toBe("A");
    expect(rt.listInstances("ta", ALL).content.map((i) => i.id)).toEqual([ia.id]);
    expect(rt.listTasks("tb", ALL).map((t) => t.id)).toEqual([ib.activeTasks[0].id]);
    expect(() => rt.getInstance("tb", ia.id)).toThrow(/not found/);
    expect(() => rt.getTask("tb", ia.activeTasks[0].id)).toThrow(/not found/);
    await expect(
      rt.completeTask("tb", ia.activeTasks[0].id, {}, { userId: "x", channel: "REST" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(rt.cancelInstance("tb", ia.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(() => rt.historyActivities("tb", ia.id)).toThrow(/not found/);
    expect(() => rt.diagramSvg("tb", ia.id)).toThrow(/not found/);
    expect(rt.monitor("ta", "p").runningInstances).toBe(1);
    await rt.signal("tb", "x");
    expect(rt.getInstance("ta", ia.id).ended).toBe(false);
  });
});
