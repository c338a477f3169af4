import { apiKey, createTenant, saTenantToken, saToken, userInTenant } from "./fixtures";
import { startFakeOpenAi, type FakeOpenAi, type ScriptedAnswer } from "./openai-server";
import { startTestServer, type TestServer } from "./server";

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

export interface AgentWorld {
  ai: FakeOpenAi;
  s: TestServer;
  bare: TestServer;
  tok: Record<string, string>;
  tenantId: string;
  otherTenantId: string;
  key: string;
  scriptFor(agent: string, ...answers: ScriptedAnswer[]): void;
  failures(
    token: string,
    q?: string,
  ): Promise<{ content: Record<string, unknown>[]; totalElements: number; size: number }>;
  aiFailedCount(token: string): Promise<number>;
  varsOf(id: string): Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * A service on the local OpenAI-compatible server, a tenant with every role, an API key and a second tenant. The
 * model answers per agent: each test agent's instructions start "agent <key>", and `scriptFor` queues its answers.
 */
export async function startAgentWorld(
  opts: { withBare?: boolean; env?: Record<string, string> } = {},
): Promise<AgentWorld> {
  const scripts = new Map<string, ScriptedAnswer[]>();
  const systemOf = (body: Record<string, unknown>) =>
    String((body.messages as { role: string; content: unknown }[]).find((m) => m.role === "system")?.content ?? "");
  const ai = startFakeOpenAi();
  ai.respond = (body) => {
    const m = /^agent (\S+)/.exec(systemOf(body));
    return m ? scripts.get(m[1])?.shift() : undefined;
  };
  const s = await startTestServer({
    env: { AI_BASE_URL: ai.url, AI_MODEL: "fake-chat", AI_EMBEDDING_MODEL: "fake-embed", ...opts.env },
  });
  const bare = opts.withBare ? await startTestServer() : s;
  const sa = await saToken(s);
  const t = await createTenant(s, "agents-one", sa);
  const tok: Record<string, string> = {};
  tok.MODELER = (await userInTenant(s, t, "MODELER", sa)).token;
  tok.USER = (await userInTenant(s, t, "USER", sa)).token;
  tok.MANAGER = (await userInTenant(s, t, "MANAGER", sa)).token;
  tok.ADMIN = (await userInTenant(s, t, "ADMIN", sa)).token;
  tok.SA = await saTenantToken(s, t);
  const key = (await apiKey(s, tok.ADMIN, ["read", "write"])).key;
  const other = await createTenant(s, "agents-two", sa);
  tok.OTHER = (await userInTenant(s, other, "MODELER", sa)).token;
  return {
    ai,
    s,
    bare,
    tok,
    tenantId: t.id,
    otherTenantId: other.id,
    key,
    scriptFor: (agent, ...answers) => void scripts.set(agent, answers),
    failures: async (token, q = "") =>
      (await (await s.req("GET", `/api/a/ai-task-failures${q}`, { token })).json()) as never,
    async aiFailedCount(token) {
      const n = (await (await s.req("GET", "/api/a/notifications?size=100", { token })).json()) as
        | { type: string }[]
        | { content: { type: string }[] };
      return (Array.isArray(n) ? n : n.content).filter((x) => x.type === "AI_TASK_FAILED").length;
    },
    varsOf: async (id) =>
      (await (await s.req("GET", `/api/a/history/instances/${id}`, { token: tok.ADMIN })).json()) as unknown,
    async stop() {
      await s.close();
      if (bare !== s) await bare.close();
      ai.stop();
    },
  };
}

/**
 * A one-path CMMN case: (human task `before` →) task `step` (agent or robot markup) → human task `after`. The plan
 * item of the step is `piStep`, its task definition `step`.
 */
export function workerCase(key: string, stepAttrs: string, opts: { taskFirst?: boolean } = {}): string {
  const first = opts.taskFirst
    ? `<planItem id="piBefore" name="Before" definitionRef="before"/><humanTask id="before" name="Before"/>
    <sentry id="sStep"><planItemOnPart id="opB" sourceRef="piBefore"><standardEvent>complete</standardEvent></planItemOnPart></sentry>`
    : "";
  const entry = opts.taskFirst ? `<entryCriterion id="eStep" sentryRef="sStep"/>` : "";
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" xmlns:flowable="http://flowable.org/cmmn"
  xmlns:pms="urn:pms:cmmn" xmlns:camunda="http://camunda.org/schema/1.0/cmmn" targetNamespace="t">
  <case id="${key}" name="${key}"><casePlanModel id="${key}Plan" name="${key} plan">
    ${first}
    <planItem id="piStep" name="Worker step" definitionRef="step">${entry}</planItem>
    <task id="step" name="Worker step" ${stepAttrs}/>
    <planItem id="piAfter" name="After" definitionRef="after"><entryCriterion id="eAfter" sentryRef="sAfter"/></planItem>
    <sentry id="sAfter"><planItemOnPart id="opS" sourceRef="piStep"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
    <humanTask id="after" name="After"/>
  </casePlanModel></case>
</definitions>`;
}

export interface PlanItemBody {
  id: string;
  elementId: string;
  name: string;
  state: string;
  actions: string[];
}

/** The live plan items of a case as `token` sees them. */
export async function planItemsOf(s: TestServer, token: string, caseId: string): Promise<PlanItemBody[]> {
  const r = await s.req("GET", `/api/a/instances/${caseId}/plan-items`, { token });
  if (r.status !== 200) throw new Error(`plan-items ${r.status}: ${await r.text()}`);
  return (await r.json()) as PlanItemBody[];
}
