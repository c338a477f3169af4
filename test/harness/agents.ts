import type { TestServer } from "./server";

/** A one-path BPMN: start → (userTask `before`) → service task `step` (agent markup) → userTask `after` → end. */
export function agentProcess(key: string, stepAttrs: string, opts: { taskFirst?: boolean } = {}): string {
  const first = opts.taskFirst ? `<userTask id="before" name="Before"/>` : "";
  const flows = opts.taskFirst
    ? `<sequenceFlow id="f0" sourceRef="s" targetRef="before"/><sequenceFlow id="f1" sourceRef="before" targetRef="step"/>`
    : `<sequenceFlow id="f1" sourceRef="s" targetRef="step"/>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:pms="urn:pms:bpmn" targetNamespace="t">
  <process id="${key}" isExecutable="true">
    <startEvent id="s"/>${first}
    <serviceTask id="step" name="AI step" ${stepAttrs}/>
    <userTask id="after" name="After"/>
    <endEvent id="e"/>
    ${flows}
    <sequenceFlow id="f2" sourceRef="step" targetRef="after"/>
    <sequenceFlow id="f3" sourceRef="after" targetRef="e"/>
  </process>
</definitions>`;
}

/** Creates an agent through the API; answers the created agent. */
export async function createAgent(s: TestServer, token: string, body: Record<string, unknown>) {
  const r = await s.req("POST", "/api/a/agents", {
    token,
    json: { modelId: "fake-chat", instructions: `agent ${body.key}`, ...body },
  });
  if (r.status !== 201) throw new Error(`agent create ${r.status}: ${await r.text()}`);
  return (await r.json()) as { key: string };
}
