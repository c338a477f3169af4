import { z } from "zod";
import { createAgent, listAgents } from "../../agents/agents";
import { attachAgent } from "../../agents/attachments";
import {
  AgentBody,
  AgentSchema,
  AttachmentSchema,
  StepBody,
  SuggestBody,
  SuggestionSchema,
} from "../../agents/schemas";
import { suggestKnowledge } from "../../agents/suggest-knowledge";
import { listOf, tool } from "../descriptor";

export const agentTools = [
  tool({
    name: "svc_agent_list",
    title: "List AI agents",
    description:
      "The tenant's AI agents and the global ones: model, instructions, tools, knowledge bases, CMS clearance, output variables, limits. `processKey` names the process an agent was written for (null: any).",
    input: z.object({}),
    output: listOf(AgentSchema),
    readOnly: true,
    destructive: false,
    idempotent: true,
    run: ({ ctx }) => ({ items: listAgents({ ctx }) }),
    summary: (o) => o.items.map((a) => `${a.key} (${a.modelId})`).join("\n") || "No agent",
  }),
  tool({
    name: "svc_agent_create",
    title: "Create an AI agent",
    description:
      "Creates an AI agent. `modelId` is an id of svc_ai_model_list (a chat model); knowledge bases from svc_kb_list or svc_agent_suggest_knowledge. isGlobal (every tenant) is SUPER_ADMIN's alone. The agent runs nowhere until svc_agent_attach_to_step.",
    input: AgentBody,
    output: AgentSchema,
    readOnly: false,
    destructive: false,
    run: ({ ctx, input }) => createAgent({ ctx, input }),
    summary: (o) => `Created agent '${o.key}' on model ${o.modelId}`,
  }),
  tool({
    name: "svc_agent_attach_to_step",
    title: "Attach an agent to a step",
    description:
      "The step (processKey, activityId: an AI service task of the process) runs this agent from now on, with the agent's tools. A step holds one agent: attaching again moves it.",
    input: StepBody.extend({ key: z.string().min(1).describe("agent key") }),
    output: AttachmentSchema,
    readOnly: false,
    destructive: false,
    idempotent: true,
    run: ({ ctx, input }) => attachAgent({ ctx, input }),
    summary: (o) => `Agent ${o.agentKey} attached to ${o.processKey}/${o.activityId}`,
  }),
  tool({
    name: "svc_agent_suggest_knowledge",
    title: "Suggest knowledge bases for a step",
    description:
      "The existing knowledge bases relevant to a step, ranked by how their name and description match `text` (what the step does). No model call.",
    input: SuggestBody,
    output: listOf(SuggestionSchema),
    readOnly: true,
    destructive: false,
    idempotent: true,
    run: ({ ctx, input }) => ({ items: suggestKnowledge({ ctx, input }) }),
    summary: (o) => o.items.map((s) => `${s.name} (${s.id}) score ${s.score}`).join("\n") || "No relevant base",
  }),
];
