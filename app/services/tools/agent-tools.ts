import { z } from "zod";
import { extractSections, formatOf } from "../../ai/knowledge/extract";
import { checkOutput } from "../agents/outputs";
import { clipVariables, cutsDetail } from "../agents/prompt-inputs";
import { recordToolCall } from "../agents/tool-log";
import { SYSTEM_ACTOR, systemTenantForToolCall } from "../attachments/system-actor";
import { fileStoreOf } from "../attachments/model";
import { listAttachments } from "../attachments/read";
import { queryRecords } from "../cms/query";
import { findCollectionByIdOrName } from "../cms/store";
import type { TenantCtx } from "../context";
import { evaluateTenantDecision } from "../decisions/operations";
import { ForbiddenError, NotFoundError } from "../errors";
import { findBase } from "../knowledge-bases/access";
import { searchBase } from "../knowledge-bases/search";
import { agentTool } from "./descriptor";

const MAX_TEXT = 20_000;
/** Tools acting as the system on the tenant declare nothing or the routed tenant (attachment rule of the spec). */
const tenantArg = z.string().optional().describe("tenant id the call acts on; must be the routed tenant");
/** Any JSON object (variables, a decision's result): what the model gets back is what the operation answered. */
const anyObject = z.looseObject({});

/** The system actor of the routed tenant, only inside this tool call (never the agent's own ctx afterwards). */
function asSystem(ctx: TenantCtx, declared: string | undefined): TenantCtx {
  systemTenantForToolCall({ routedTenantId: ctx.tenant.id, declaredTenantId: declared ?? null });
  return { ...ctx, actor: { ...SYSTEM_ACTOR, channel: "AGENT" }, channel: "AGENT" };
}

const cmsQuery = agentTool({
  name: "cms_query",
  title: "Query CMS records",
  description: "Query records of a CMS collection (by id or name) with optional equality filters",
  input: z.object({
    collection: z.string(),
    filter: z.record(z.string(), z.unknown()).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  }),
  output: z.object({ total: z.number().int(), records: z.array(anyObject) }),
  readOnly: true,
  destructive: false,
  // The CMS's own query, at the agent's clearance (never above its creator's: agents service).
  run({ ctx, input, agent }) {
    const collection = findCollectionByIdOrName(ctx.db.sqlite, input.collection);
    if (!collection) throw new NotFoundError(`Collection '${input.collection}' not found`);
    const { records, total } = queryRecords({
      tenantDb: ctx.db,
      collectionId: collection.id,
      clearance: agent.clearance,
      filter: input.filter,
      limit: input.limit ?? 20,
    });
    return { total, records: records.map((r) => ({ id: r.id, ...r.values })) };
  },
  summary: (o) => `${o.records.length} of ${o.total} records`,
});

const kbRetrieve = agentTool({
  name: "kb_retrieve",
  title: "Retrieve from knowledge bases",
  description: "Retrieve passages relevant to a query from the agent's knowledge bases",
  input: z.object({ query: z.string().min(1), k: z.number().int().min(1).max(20).optional() }),
  output: z.object({
    hits: z.array(
      z.object({ base: z.string(), fileName: z.string(), location: z.unknown(), text: z.string(), score: z.number() }),
    ),
  }),
  readOnly: true,
  destructive: false,
  async run({ ctx, input, agent }) {
    const hits = [];
    for (const id of agent.agent.knowledgeBaseIds) {
      const r = await searchBase(ctx, findBase(ctx, id), input.query, input.k);
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
    return { hits: hits.sort((a, b) => b.score - a.score).slice(0, input.k ?? 8) };
  },
  summary: (o) => `${o.hits.length} passages`,
});

const readVariables = agentTool({
  name: "read_variables",
  title: "Read the instance's variables",
  description: "Read the variables of the process instance (all, or the names given)",
  input: z.object({ names: z.array(z.string()).optional(), tenantId: tenantArg }),
  output: anyObject,
  readOnly: true,
  destructive: false,
  run({ ctx, input, agent }) {
    asSystem(ctx, input.tenantId);
    const all = agent.variables();
    // Clipped as the prompt's inputs are: a tool result goes to the model too.
    const { values, cuts } = clipVariables(
      input.names ? Object.fromEntries(input.names.map((n) => [n, all[n] ?? null])) : all,
    );
    if (cuts.length) {
      const r = {
        instanceId: agent.instanceId,
        activity: agent.activity,
        agentKey: agent.agent.key,
        tool: "prompt",
        args: null,
        outcome: "OK" as const,
        detail: cutsDetail("read_variables result", cuts),
        durationMs: 0,
        at: ctx.clock.now(),
      };
      // In an agent loop it goes with the model step's record (loop/step-store.ts).
      if (agent.record) agent.record(r);
      else recordToolCall(ctx, r);
    }
    return values;
  },
  summary: (o) => `${Object.keys(o).length} variables`,
});

const readAttachments = agentTool({
  name: "read_attachments",
  title: "Read the instance's attachments",
  description: "Read the documents attached to the process instance, with their text",
  input: z.object({ tenantId: tenantArg }),
  output: z.object({
    attachments: z.array(
      z.object({ id: z.string(), fileName: z.string(), contentType: z.string(), text: z.string().nullable() }),
    ),
  }),
  readOnly: true,
  destructive: false,
  async run({ ctx, input, agent }) {
    const sys = asSystem(ctx, input.tenantId);
    if (!agent.instanceId) return { attachments: [] };
    let rows: ReturnType<typeof listAttachments> = [];
    try {
      rows = listAttachments({ ctx: sys, input: { entityType: "PROCESS_INSTANCE", entityId: agent.instanceId } });
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
  summary: (o) => `${o.attachments.length} attachments`,
});

const evaluateDecision = agentTool({
  name: "evaluate_decision",
  title: "Evaluate a decision",
  description: "Evaluate a DMN decision of the tenant with the given input variables",
  input: z.object({ key: z.string(), variables: z.record(z.string(), z.unknown()).optional() }),
  output: z.object({ result: z.unknown() }),
  readOnly: true,
  destructive: false,
  // The operation of POST /a/decisions/{key}/evaluate, admitted per tenant as the route is.
  run: async ({ ctx, input }) => ({
    result: await evaluateTenantDecision({ ctx, input: { key: input.key, variables: input.variables ?? {} } }),
  }),
  summary: () => "evaluated",
});

const setOutput = agentTool({
  name: "set_output",
  title: "Set an output",
  description: "Set one of the agent's declared output variables",
  input: z.object({ name: z.string(), value: z.unknown() }),
  output: z.object({ ok: z.boolean() }),
  readOnly: false,
  destructive: false,
  run({ input, agent }) {
    const decl = agent.agent.outputVariables.find((v) => v.name === input.name);
    if (!decl)
      throw new ForbiddenError(
        `'${input.name}' is not an output variable of this agent (${agent.agent.outputVariables.map((v) => v.name).join(", ")})`,
      );
    agent.outputs[input.name] = checkOutput(decl, input.value);
    return { ok: true };
  },
  summary: () => "set",
});

/** The tools an agent's configuration may list (AGENT_TOOLS names them, in this order); registry.ts lists them too. */
export const agentTools = [cmsQuery, kbRetrieve, readVariables, readAttachments, evaluateDecision, setOutput];

// The agent adapter looks its tools up here rather than in registry.ts: the registry also loads every MCP tool, whose
// schemas must be built after the HTTP layer has extended zod (a platform is assembled before its HTTP app in tests).
const byName = new Map(agentTools.map((t) => [t.name, t]));
export const agentToolNamed = (name: string) => byName.get(name);
