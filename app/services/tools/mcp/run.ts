import { z } from "zod";
import { attachTextToInstance } from "../../attachments/attach-text";
import { instanceDetail } from "../../instances/read";
import { completeOverMcp } from "../../mcp-run/complete";
import { startableWithPolicy } from "../../mcp-run/policy";
import { previewCompletion } from "../../mcp-run/preview";
import { startOverMcp } from "../../mcp-run/start";
import { failuresByBusinessKey } from "../../ai-task-failures/failures";
import { FailureSchema } from "../../ai-task-failures/schemas";
import { myInbox } from "../../tasks/inbox";
import { claimTask } from "../../tasks/operations";
import { taskDetail } from "../../tasks/queries";
import { TaskDetailSchema, TaskSchema } from "../../tasks/schemas";
import { listOf, tool } from "../descriptor";
import { agentLoopsInShort } from "../../agents/loop/conversation";

const taskId = z.string().min(1).describe("task id");
const variables = z.record(z.string(), z.unknown()).describe("process variables, by name");
const Instance = z.object({
  id: z.string(),
  businessKey: z.string().nullable(),
  definitionKey: z.string(),
  version: z.number().int(),
  type: z.string(),
  ended: z.boolean(),
});
const read = { readOnly: true, destructive: false, idempotent: true };
const AgentLoopShort = z.object({
  subProcessId: z.string(),
  agentKey: z.string(),
  state: z.string(),
  turns: z.number().int(),
  tokens: z.number().int(),
  lastCalls: z.array(z.string()),
  waiting: z.array(z.object({ tool: z.string(), taskId: z.string().nullable() })),
});

export const runTools = [
  tool({
    name: "svc_run_startable_list",
    title: "Startable processes",
    description: "The enabled, active definitions with their MCP policy (NONE, START_AND_READ, START_AND_COMPLETE).",
    input: z.object({}),
    output: listOf(
      z.object({
        key: z.string(),
        name: z.string(),
        mcpPolicy: z.string(),
        canStart: z.boolean(),
        canComplete: z.boolean(),
      }),
    ),
    ...read,
    run: ({ ctx }) => ({ items: startableWithPolicy({ ctx }) }),
    summary: (o) => o.items.map((d) => `${d.key}: ${d.mcpPolicy}`).join("\n") || "No startable definition",
  }),
  tool({
    name: "svc_run_start",
    title: "Start an instance",
    description:
      "Starts an instance of a definition, only if its MCP policy allows (START_AND_READ or START_AND_COMPLETE). A definition never published starts its latest version, and the answer says so.",
    input: z.object({
      definitionKey: z.string().min(1),
      businessKey: z.string().max(255).optional(),
      variables: variables.optional(),
    }),
    output: Instance.extend({
      activeTasks: z.array(z.object({ id: z.string(), name: z.string(), activityId: z.string() })),
      neverPublished: z.boolean(),
      note: z.string(),
    }),
    readOnly: false,
    destructive: false,
    run: ({ ctx, input }) => startOverMcp({ ctx, input }),
    summary: (o) => `${o.note}: instance ${o.id} (${o.businessKey}), ${o.activeTasks.length} open task(s)`,
  }),
  tool({
    name: "svc_run_my_tasks",
    title: "My tasks",
    description: "The caller's open tasks: assigned to them or offered to them or their process roles; newest first.",
    input: z.object({ page: z.number().int().min(0).optional(), size: z.number().int().min(1).max(200).optional() }),
    output: listOf(TaskSchema),
    ...read,
    run: ({ ctx, input }) => ({ items: myInbox({ ctx, input }) }),
    summary: (o) =>
      o.items.map((t) => `${t.id} ${t.name} (${t.businessKey ?? t.instanceId})`).join("\n") || "No open task",
  }),
  tool({
    name: "svc_run_task_get",
    title: "Get a task",
    description: "A task with the form schema of the version locked when it was created (null when it has none).",
    input: z.object({ taskId }),
    output: TaskDetailSchema,
    ...read,
    run: ({ ctx, input }) => taskDetail({ ctx, input }),
    summary: (o) =>
      `Task '${o.name}' (${o.state}) of ${o.businessKey ?? o.instanceId}, assignee ${o.assignee ?? "none"}`,
  }),
  tool({
    name: "svc_run_task_claim",
    title: "Claim a task",
    description: "Claims a task offered to the caller or a role they hold; a task claimed by someone else is refused.",
    input: z.object({ taskId }),
    output: TaskSchema,
    readOnly: false,
    destructive: false,
    idempotent: true,
    run: ({ ctx, input }) => claimTask({ ctx, input }),
    summary: (o) => `Claimed task '${o.name}' (${o.id})`,
  }),
  tool({
    name: "svc_run_task_preview",
    title: "Preview a task completion",
    description:
      "Shows what completing the task with these variables would write and the activities the instance can move to (conditions shown, not evaluated). Writes nothing. Returns the confirmationToken svc_run_task_complete requires (valid 10 minutes, for exactly these variables).",
    input: z.object({ taskId, variables: variables.default({}) }),
    output: z.object({
      taskId: z.string(),
      mcpPolicy: z.string(),
      writes: z.array(z.object({ name: z.string(), value: z.unknown(), previous: z.unknown(), isNew: z.boolean() })),
      missingRequiredFields: z.array(z.string()),
      nextActivities: z.array(
        z.object({
          activityId: z.string(),
          name: z.string(),
          type: z.string(),
          conditional: z.boolean(),
          condition: z.string().nullable(),
          isDefault: z.boolean(),
        }),
      ),
      canComplete: z.boolean(),
      blockers: z.array(z.string()),
      confirmationToken: z.string(),
      expiresAt: z.string(),
    }),
    readOnly: true,
    destructive: false,
    run: ({ ctx, input }) => previewCompletion({ ctx, input }),
    summary: (o) =>
      [
        `Completing would write ${o.writes.length} variable(s) and can move to: ${
          o.nextActivities
            .map((a) => `${a.name || a.activityId}${a.condition ? ` [if ${a.condition}]` : ""}`)
            .join(", ") || "(the end of its scope)"
        }`,
        o.canComplete ? `confirmationToken: ${o.confirmationToken}` : `Cannot complete yet: ${o.blockers.join("; ")}`,
      ].join("\n"),
  }),
  tool({
    name: "svc_run_task_complete",
    title: "Complete a task",
    description:
      "Completes one task claimed by the caller, with exactly the variables previewed and the preview's confirmationToken. Requires the process's MCP policy START_AND_COMPLETE.",
    input: z.object({ taskId, variables: variables.default({}), confirmationToken: z.string().min(1) }),
    output: TaskSchema,
    readOnly: false,
    destructive: true,
    run: ({ ctx, input }) => completeOverMcp({ ctx, input }),
    summary: (o) => `Completed task '${o.name}' (${o.id})`,
  }),
  tool({
    name: "svc_run_attach_text",
    title: "Attach a text to an instance",
    description: "Attaches a text document to a process instance, under the process's attachment policy.",
    input: z.object({
      instanceId: z.string().min(1),
      fileName: z.string().min(1).max(200),
      text: z.string(),
      documentTypeId: z.string().optional(),
    }),
    output: z.object({ id: z.string(), fileName: z.string(), size: z.number().int(), version: z.number().int() }),
    readOnly: false,
    destructive: false,
    run: ({ ctx, input }) => attachTextToInstance({ ctx, input }),
    summary: (o) => `Attached ${o.fileName} (${o.size} bytes) as ${o.id}`,
  }),
  tool({
    name: "svc_run_instance_get",
    title: "Get an instance",
    description:
      "The state of one process instance or case, with its variables; for a process, its AI agent loops (ad-hoc subprocesses an agent drives): state, turns, tokens, the tools last called and what they wait for (a person's task).",
    input: z.object({ instanceId: z.string().min(1) }),
    output: Instance.extend({ state: z.string(), agentLoops: z.array(AgentLoopShort).optional() }),
    ...read,
    run: ({ ctx, input }) => {
      const detail = instanceDetail({ ctx, input: { id: input.instanceId } });
      if (detail.type !== "BPMN") return detail;
      return { ...detail, agentLoops: agentLoopsInShort(ctx, input.instanceId) };
    },
    summary: (o) =>
      [
        `Instance ${o.id} (${o.businessKey}) of ${o.definitionKey}: ${o.state}`,
        ...(o.agentLoops ?? []).map(
          (l) =>
            `Agent ${l.agentKey} at ${l.subProcessId}: ${l.state}, ${l.turns} turns, ${l.tokens} tokens${l.waiting.length ? `, waiting for ${l.waiting.map((w) => w.tool).join(", ")}` : ""}`,
        ),
      ].join("\n"),
  }),
  tool({
    name: "svc_run_why_failed",
    title: "Why an AI step failed",
    description:
      "The AI agent failures of the instance(s) with this business key, newest first: step, agent, failure type (MODEL_UNAVAILABLE, TIMEOUT, QUOTA_EXCEEDED, INVALID_OUTPUT, ...), reason and attempts. Empty: no AI step of that business key failed.",
    input: z.object({ businessKey: z.string().min(1).max(255) }),
    output: listOf(FailureSchema),
    ...read,
    run: ({ ctx, input }) => ({ items: failuresByBusinessKey({ ctx, input }) }),
    summary: (o) =>
      o.items
        .map(
          (f) =>
            `${f.processKey}/${f.activity} (agent ${f.agentKey}): ${f.failureType}, ${f.reason} x${f.attemptCount}`,
        )
        .join("\n") || "No AI failure for this business key",
  }),
];
