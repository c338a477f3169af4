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
