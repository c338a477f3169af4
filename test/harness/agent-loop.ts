import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentWorld } from "./agents";
import type { TestServer } from "./server";

/**
 * A refund case driven by an agent: ad-hoc subprocess `handle` (pms:agent) whose tools are a service task that looks
 * an order up, a decision, a user task asking a person, and a robot; after it, the user task `after`.
 */
export function refundProcess(key: string, agent: string, extra = ""): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"
  xmlns:pms="urn:pms:bpmn" targetNamespace="t">
  <process id="${key}" isExecutable="true">
    <startEvent id="s"/>
    <adHocSubProcess id="handle" name="Handle the request" pms:agent="${agent}">
      <serviceTask id="lookup_order" name="Look up an order" flowable:expression="\${'order ' + orderId + ' of 40 EUR'}" flowable:resultVariable="order">
        <documentation>Finds an order by its id</documentation>
        <extensionElements><camunda:inputOutput>
          <camunda:inputParameter name="orderId">fromAi(toolCall.orderId, "the order's id", "string")</camunda:inputParameter>
        </camunda:inputOutput></extensionElements>
      </serviceTask>
      <businessRuleTask id="discount_for" name="Discount of a customer" flowable:decisionTableReferenceKey="discount" flowable:resultVariable="discount" flowable:failedJobRetryTimeCycle="R1/PT1S">
        <extensionElements><zeebe:ioMapping>
          <zeebe:input source="=fromAi(toolCall.customerType, &quot;GOLD or SILVER&quot;, &quot;string&quot;)" target="customerType"/>
          <zeebe:input source="=fromAi(toolCall.amount, &quot;the amount&quot;, &quot;number&quot;)" target="amount"/>
        </zeebe:ioMapping></extensionElements>
      </businessRuleTask>
      <userTask id="ask_person" name="Ask a person" flowable:candidateGroups="support" flowable:formKey="approval" flowable:dueDate="P2D">
        <documentation>Asks a support person a question; answers {approved, note}</documentation>
        <extensionElements><camunda:inputOutput>
          <camunda:inputParameter name="question">fromAi(toolCall.question, "what to ask")</camunda:inputParameter>
        </camunda:inputOutput></extensionElements>
      </userTask>
      ${extra}
    </adHocSubProcess>
    <userTask id="after" name="After"/>
    <endEvent id="e"/>
    <sequenceFlow id="f1" sourceRef="s" targetRef="handle"/>
    <sequenceFlow id="f2" sourceRef="handle" targetRef="after"/>
    <sequenceFlow id="f3" sourceRef="after" targetRef="e"/>
  </process>
</definitions>`;
}

/** Publishes the discount decision of the fixtures for the tenant of `token`. */
export async function publishDiscount(s: { req: TestServer["req"] }, token: string) {
  const fd = new FormData();
  fd.append(
    "file",
    new File([readFileSync(join(import.meta.dir, "../fixtures/dmn/discount.dmn"), "utf8")], "discount.dmn"),
  );
  const r = await s.req("POST", "/api/a/decisions", { token, body: fd });
  if (r.status !== 201) throw new Error(`decision ${r.status}: ${await r.text()}`);
}

/** The messages of a chat call to the model, as it received them. */
export type ChatMessage = { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string };
export const toolMessages = (body: Record<string, unknown>) =>
  (body.messages as ChatMessage[]).filter((m) => m.role === "tool");

/** The chat completions the scripted model received from agent `agent` (its system prompt starts with its key). */
export const chatsOf = (w: AgentWorld, agent: string) =>
  w.ai.calls.filter(
    (c) =>
      c.path === "/v1/chat/completions" &&
      (c.body.messages as { role: string; content: unknown }[]).some(
        (m) => m.role === "system" && String(m.content).startsWith(`agent ${agent}`),
      ),
  );

/** Runs the due jobs until none is left (a loop's turns and its tools' starts are jobs). */
export async function runDueJobs(w: AgentWorld): Promise<void> {
  for (let i = 0; i < 20 && (await w.s.platform.processRuntime.runDueJobs()) > 0; i++);
}

/** A GET of the API as `token` (the Admin by default): its status and JSON body. */
export async function getJson(w: AgentWorld, path: string, token = w.tok.ADMIN) {
  const r = await w.s.req("GET", `/api${path}`, { token });
  // biome-ignore lint/suspicious/noExplicitAny: answers of several routes, read where they are used
  return { status: r.status, body: (await r.json()) as any };
}
