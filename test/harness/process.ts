import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TestServer } from "./server";

/** A fixture model from test/fixtures/bpmn. */
export function bpmnFixture(name: string): string {
  return readFileSync(join(import.meta.dir, "../fixtures/bpmn", name), "utf8");
}

/** Deploys a BPMN text through the API and returns the deploy answer. */
export async function deployBpmn(s: TestServer, token: string, xml: string, fileName = "model.bpmn") {
  const fd = new FormData();
  fd.append("file", new File([xml], fileName, { type: "application/xml" }));
  const res = await s.req("POST", "/api/a/definitions/deploy", { token, body: fd });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    deploymentId: string;
    definitions: { key: string; definitionId: string; version: number; name: string; type: string }[];
    warnings: string[];
  };
}

/** Starts an instance and returns the start answer. */
export async function startProcess(s: TestServer, token: string, body: Record<string, unknown>) {
  const res = await s.req("POST", "/api/a/instances", { token, json: body });
  expect(res.status).toBe(201);
  return (await res.json()) as {
    id: string;
    businessKey: string;
    definitionKey: string;
    version: number;
    type: string;
    ended: boolean;
    activeTasks: { id: string; name: string; activityId: string; assignee: string | null }[];
  };
}

/**
 * A process whose step `stepId` runs beside a user task: start → fork → `side` (user task) → end, and fork → the step
 * → `after` (user task) → end. Completing `side` while the step's job runs moves the instance under the job's command
 * (a revision conflict that makes the command compute again).
 */
export const besideUserTask = (key: string, stepId: string, step: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:pms="urn:pms:bpmn" targetNamespace="t">
  <process id="${key}" isExecutable="true">
    <startEvent id="s"/>
    <parallelGateway id="fork"/>
    <userTask id="side" name="Side"/>
    <endEvent id="sideEnd"/>
    ${step}
    <userTask id="after" name="After"/>
    <endEvent id="e"/>
    <sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
    <sequenceFlow id="f1" sourceRef="fork" targetRef="side"/>
    <sequenceFlow id="f2" sourceRef="side" targetRef="sideEnd"/>
    <sequenceFlow id="f3" sourceRef="fork" targetRef="${stepId}"/>
    <sequenceFlow id="f4" sourceRef="${stepId}" targetRef="after"/>
    <sequenceFlow id="f5" sourceRef="after" targetRef="e"/>
  </process>
</definitions>`;
