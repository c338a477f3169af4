import { z } from "zod";
import { extractSections, formatOf } from "../../ai/knowledge/extract";
import { SYSTEM_ACTOR, systemTenantForToolCall } from "../attachments/system-actor";
import { fileStoreOf } from "../attachments/model";
import { listAttachments } from "../attachments/read";
import type { Confidentiality } from "../cms/clearance";
import { clipVariables, cutsDetail } from "./prompt-inputs";
import { recordToolCall } from "./tool-log";
import { queryRecords } from "../cms/query";
import { findCollection } from "../cms/store";
import type { TenantCtx } from "../context";
import { evaluateTenantDecision } from "../decisions/operations";
import { ForbiddenError, NotFoundError } from "../errors";
import { findBase } from "../knowledge-bases/access";
import { searchBase } from "../knowledge-bases/search";
import { checkOutput } from "./outputs";
import type { Agent, AgentToolName } from "./store";

/** What an agent's tools see of the run: the agent, its clearance, the step and its variables, the outputs so far. */
export interface AgentRunEnv {
  agent: Agent;
  clearance: Confidentiality;
  instanceId: string | null;
  activity: string | null;
  variables(): Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Filled with each tool call as it ends, when the caller wants them (the playground answers them). */
  calls?: { tool: string; outcome: string; detail: string | null }[];
}

/** One tool: written once over a service operation, adapted to the model's tool calling by the runner. */
export interface AgentTool {
  name: AgentToolName;
  description: string;
  inputSchema: z.ZodType<Record<string, unknown>>;
  readOnly: boolean;
  run(call: { ctx: TenantCtx; env: AgentRunEnv; input: Record<string, unknown> }): Promise<unknown>;
}

const MAX_TEXT = 20_000;
/** Tools acting as the system on the tenant declare nothing or the routed tenant (attachment rule of the spec). */
const tenantArg = z.string().optional().describe("tenant id the call acts on; must be the routed tenant");

const cmsQuery: AgentTool = {
  name: "cms_query",
  description: "Query records of a CMS collection (by id or name) with optional equality filters",
  inputSchema: z.object({
    collection: z.string(),
    filter: z.record(z.string(), z.unknown()).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  }),
  readOnly: true,
  async run({ ctx, env, input }) {
    const name = String(input.collection);
    const row =
      findCollection(ctx.db.sqlite, name) ??
      (ctx.db.sqlite.query("SELECT id FROM cms_collections WHERE name = ?").get(name) as { id: string } | null);
    if (!row) throw new NotFoundError(`Collection '${name}' not found`);
    const { records, total } = queryRecords({
      tenantDb: ctx.db,
      collectionId: row.id,
      clearance: env.clearance,
      filter: input.filter as Record<string, unknown> | undefined,
      limit: (input.limit as number | undefined) ?? 20,
    });
    return { total, records: records.map((r) => ({ id: r.id, ...r.values })) };
  },
};

const kbRetrieve: AgentTool = {
  name: "kb_retrieve",
  description: "Retrieve passages relevant to a query from the agent's knowledge bases",
  inputSchema: z.object({ query: z.string().min(1), k: z.number().int().min(1).max(20).optional() }),
  readOnly: true,
  async run({ ctx, env, input }) {
    const hits = [];
    for (const id of env.agent.knowledgeBaseIds) {
      const r = await searchBase(ctx, findBase(ctx, id), String(input.query), input.k as number | undefined);
      hits.push(
        ...r.hits.map((h) => ({
          base: id,
          fileName: h.fileName,
          location: h.location,
          text: h.snippet,
          score: h.score,
        })),
      );
    }
    return { hits: hits.sort((a, b) => b.score - a.score).slice(0, (input.k as number | undefined) ?? 8) };
  },
};

/** The system actor of the routed tenant, only inside this tool call (never the agent's own ctx afterwards). */
function asSystem(ctx: TenantCtx, declared: unknown): TenantCtx {
  systemTenantForToolCall({
    routedTenantId: ctx.tenant.id,
    declaredTenantId: (declared as string | undefined) ?? null,
  });
  return { ...ctx, actor: { ...SYSTEM_ACTOR, channel: "AGENT" }, channel: "AGENT" };
}

const readVariables: AgentTool = {
  name: "read_variables",
  description: "Read the variables of the process instance (all, or the names given)",
  inputSchema: z.object({ names: z.array(z.string()).optional(), tenantId: tenantArg }),
  readOnly: true,
  async run({ ctx, env, input }) {
    asSystem(ctx, input.tenantId);
    const all = env.variables();
    const names = input.names as string[] | undefined;
    // Clipped as the prompt's inputs are: a tool result goes to the model too.
    const { values, cuts } = clipVariables(names ? Object.fromEntries(names.map((n) => [n, all[n] ?? null])) : all);
    if (cuts.length)
      recordToolCall(ctx, {
        instanceId: env.instanceId,
        activity: env.activity,
        agentKey: env.agent.key,
        tool: "prompt",
        args: null,
        outcome: "OK",
        detail: cutsDetail("read_variables result", cuts),
        durationMs: 0,
      });
    return values;
  },
};

const readAttachments: AgentTool = {
  name: "read_attachments",
  description: "Read the documents attached to the process instance, with their text",
  inputSchema: z.object({ tenantId: tenantArg }),
  readOnly: true,
  async run({ ctx, env, input }) {
    const sys = asSystem(ctx, input.tenantId);
    if (!env.instanceId) return { attachments: [] };
    let rows: ReturnType<typeof listAttachments> = [];
    try {
      rows = listAttachments({ ctx: sys, input: { entityType: "PROCESS_INSTANCE", entityId: env.instanceId } });
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e; // an instance being started has no attachments yet
    }
    const store = fileStoreOf(sys);
    const out = [];
    for (const a of rows) {
      let text: string | null = null;
      try {
        const bytes = new Uint8Array(await Bun.file(store.pathOf(a.sha256)).arrayBuffer());
        text = (await extractSections(formatOf(a.fileName, a.contentType), bytes)).map((s) => s.text).join("\n");
      } catch {
        text = null; // not a text format the service reads
      }
      out.push({ id: a.id, fileName: a.fileName, contentType: a.contentType, text: text?.slice(0, MAX_TEXT) ?? null });
    }
    return { attachments: out };
  },
};

const evaluateDecision: AgentTool = {
  name: "evaluate_decision",
  description: "Evaluate a DMN decision of the tenant with the given input variables",
  inputSchema: z.object({ key: z.string(), variables: z.record(z.string(), z.unknown()).optional() }),
  readOnly: true,
  run: ({ ctx, input }) =>
    evaluateTenantDecision({
      ctx,
      input: { key: String(input.key), variables: (input.variables as Record<string, unknown>) ?? {} },
    }),
};

const setOutput: AgentTool = {
  name: "set_output",
  description: "Set one of the agent's declared output variables",
  inputSchema: z.object({ name: z.string(), value: z.unknown() }),
  readOnly: false,
  async run({ env, input }) {
    const name = String(input.name);
    const decl = env.agent.outputVariables.find((v) => v.name === name);
    if (!decl)
      throw new ForbiddenError(
        `'${name}' is not an output variable of this agent (${env.agent.outputVariables.map((v) => v.name).join(", ")})`,
      );
    env.outputs[name] = checkOutput(decl, input.value);
    return { ok: true };
  },
};

export const TOOLS: Record<AgentToolName, AgentTool> = {
  cms_query: cmsQuery,
  kb_retrieve: kbRetrieve,
  read_variables: readVariables,
  read_attachments: readAttachments,
  evaluate_decision: evaluateDecision,
  set_output: setOutput,
};
