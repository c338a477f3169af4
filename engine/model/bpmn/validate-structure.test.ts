import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseBpmn } from "./parse";
import { structuralFindings } from "./validate-structure";

const bpmn = (id: string, body: string) =>
  `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t"><process id="${id}" isExecutable="true">${body}</process></definitions>`;
const findings = async (xml: string) => (await parseBpmn(xml)).processes.flatMap(structuralFindings);
const codes = async (xml: string) =>
  (await findings(xml)).filter((f) => f.code !== "MISSING_DIAGRAM").map((f) => [f.code, f.elementId]);
const line = `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>
  <sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>`;

describe("structural findings", () => {
  test("a clean model with a diagram has none", async () => {
    const xml = readFileSync(join(import.meta.dir, "../../../test/fixtures/bpmn/with-diagram.bpmn"), "utf8");
    expect(await findings(xml)).toEqual([]);
  });

  test("an element no flow reaches is an orphan (and, with nothing leaving it, a dead end)", async () => {
    expect(await codes(bpmn("p", `${line}<userTask id="lonely"/>`))).toEqual([
      ["ORPHAN", "lonely"],
      ["DEAD_END", "lonely"],
    ]);
  });

  test("a loop no start event leads to is an orphan although flows reach its elements", async () => {
    const loop = `<userTask id="a"/><userTask id="b"/><sequenceFlow id="x" sourceRef="a" targetRef="b"/>
      <sequenceFlow id="y" sourceRef="b" targetRef="a"/>`;
    const f = await findings(bpmn("p", `${line}${loop}`));
    expect(f.filter((x) => x.code === "ORPHAN").map((x) => x.elementId)).toEqual(["a", "b"]);
    expect(f[0].message).toMatch(/no path from a start event reaches it/);
  });

  test("a non-end element with no outgoing flow is a dead end; an end event is not", async () => {
    const xml = bpmn("p", `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>`);
    expect(await codes(xml)).toEqual([["DEAD_END", "t"]]);
  });

  test("an exclusive or inclusive gateway with conditional flows and no default is reported; with a default it is not", async () => {
    const gw = (type: string, dflt: string) =>
      bpmn(
        "p",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="g"/><${type} id="g" ${dflt}/>
        <sequenceFlow id="a" sourceRef="g" targetRef="e"><conditionExpression>\${x}</conditionExpression></sequenceFlow>
        <sequenceFlow id="b" sourceRef="g" targetRef="e"/><endEvent id="e"/>`,
      );
    expect(await codes(gw("exclusiveGateway", ""))).toEqual([["GATEWAY_WITHOUT_DEFAULT", "g"]]);
    expect(await codes(gw("inclusiveGateway", ""))).toEqual([["GATEWAY_WITHOUT_DEFAULT", "g"]]);
    expect(await codes(gw("exclusiveGateway", 'default="b"'))).toEqual([]);
    expect(await codes(gw("parallelGateway", ""))).toEqual([]);
  });

  test("a file without a diagram section gets a warning naming no element", async () => {
    expect(await findings(bpmn("p", line))).toEqual([
      {
        severity: "warning",
        code: "MISSING_DIAGRAM",
        elementId: null,
        processId: "p",
        message: "Process 'p': the file has no diagram (BPMN DI) section",
      },
    ]);
  });

  test("elements inside a reached subprocess, boundary events and their paths are reachable", async () => {
    const xml = bpmn(
      "p",
      `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
      <subProcess id="sub"><startEvent id="is"/><sequenceFlow id="i0" sourceRef="is" targetRef="it"/><userTask id="it"/>
        <sequenceFlow id="i1" sourceRef="it" targetRef="ie"/><endEvent id="ie"/></subProcess>
      <boundaryEvent id="b" attachedToRef="sub"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></boundaryEvent>
      <sequenceFlow id="f1" sourceRef="sub" targetRef="e"/><sequenceFlow id="f2" sourceRef="b" targetRef="late"/>
      <userTask id="late"/><sequenceFlow id="f3" sourceRef="late" targetRef="e"/><endEvent id="e"/>`,
    );
    expect(await codes(xml)).toEqual([]);
  });
});
