import type { Database } from "bun:sqlite";
import type { ToolSet } from "ai";
import { ConflictError } from "../../engine/errors";
import { safeFetch } from "../outbound";
import { type AiSettings, modelCatalogue, type ModelEntry, providerName } from "./catalogue";
import { type AiCaller, createUsageLedger } from "./usage";

type OpenAiProvider = ReturnType<typeof import("@ai-sdk/openai-compatible").createOpenAICompatible>;

export interface AiGatewayOptions {
  settings: AiSettings;
  platformSqlite: Database;
  clock: () => number;
  newId?: () => string;
}

// The endpoint is the operator's own configuration (often Ollama or vLLM on this machine or the LAN), so its host is
// the one internal destination the SSRF policy lets through for these calls; redirects elsewhere are still checked.
const outboundFetch = (baseUrl: string): typeof fetch => {
  const host = new URL(baseUrl).hostname;
  const f = (input: RequestInfo | URL, init?: RequestInit) =>
    safeFetch(input instanceof Request ? input.url : input, init, { allowedPrivate: [host], timeoutMs: 120_000 });
  return f as typeof fetch;
};

/**
 * The one place that knows the configured models. Every call checks the quotas first (402), and records its usage
 * (tenant, user or key or system, feature, model, tokens, time) in the platform database after it answers.
 */
export function createAiGateway(opts: AiGatewayOptions) {
  const s = opts.settings;
  const ledger = createUsageLedger(opts.platformSqlite, opts.clock, opts.newId ?? (() => Bun.randomUUIDv7()));
  // The AI SDK is imported on first use: it is a good part of the start-up time and most requests never need it.
  const baseUrl = s.baseUrl;
  let sdk: Promise<{ provider: OpenAiProvider; ai: typeof import("ai") }> | null = null;
  const load = () => {
    if (!baseUrl) throw new ConflictError("No AI model is configured");
    sdk ??= Promise.all([import("@ai-sdk/openai-compatible"), import("ai")]).then(([compat, ai]) => ({
      ai,
      provider: compat.createOpenAICompatible({
        name: providerName(baseUrl),
        baseURL: baseUrl,
        apiKey: s.apiKey ?? undefined,
        fetch: outboundFetch(baseUrl),
      }),
    }));
    return sdk;
  };
  const chatModel = baseUrl && s.model ? s.model : null;
  const embeddingModel = baseUrl && s.embeddingModel ? s.embeddingModel : null;
  let dimensions: number | null = null;

  const api = {
    ledger,
    catalogue: (): ModelEntry[] => modelCatalogue(s),
    /** The chat model, or null: the "no active model" state. */
    chatModel,
    /** The embedding model, or null: retrieval is then full-text only. */
    embeddingModel,

    /** Embeds `texts` with the configured model; 409 with none configured, 402 over a quota. */
    async embed(caller: AiCaller, texts: string[]): Promise<number[][]> {
      if (!embeddingModel) throw new ConflictError("No embedding model is configured");
      ledger.check(caller, false);
      const t0 = performance.now();
      const { ai, provider } = await load();
      const r = await ai.embedMany({ model: provider.embeddingModel(embeddingModel), values: texts, maxRetries: 0 });
      ledger.record(caller, {
        model: embeddingModel,
        inputTokens: r.usage.tokens ?? 0,
        outputTokens: 0,
        durationMs: Math.round(performance.now() - t0),
      });
      return r.embeddings;
    },

    /** Width of the embedding model's vectors, learnt from one probe call (counted as the system's). */
    async embeddingDimensions(): Promise<number> {
      if (dimensions) return dimensions;
      const [v] = await api.embed(
        { tenantId: null, kind: "SYSTEM", userId: null, apiKeyId: null, feature: "embedding-probe" },
        ["dimension probe"],
      );
      dimensions = v.length;
      return dimensions;
    },

    /**
     * One chat completion. The spec's metered features (AI validation, copilot) need a configured tenant quota,
     * so an unset one answers 402 as an exhausted one does; 409 with no active model.
     */
    async generate(caller: AiCaller, prompt: { system?: string; prompt: string }): Promise<string> {
      if (!chatModel) throw new ConflictError("No AI model is active on this installation");
      ledger.check(caller, true);
      const t0 = performance.now();
      const { ai, provider } = await load();
      const r = await ai.generateText({ model: provider.chatModel(chatModel), ...prompt, maxRetries: 0 });
      ledger.record(caller, {
        model: chatModel,
        inputTokens: r.usage.inputTokens ?? 0,
        outputTokens: r.usage.outputTokens ?? 0,
        durationMs: Math.round(performance.now() - t0),
      });
      return r.text;
    },

    /**
     * A tool-calling run (agent steps, the playground): model turns until it answers without a tool call or
     * `maxSteps` turns were taken; `signal` aborts it (timeouts). 409 with no active model, 402 over a quota.
     */
    async generateWithTools(
      caller: AiCaller,
      req: { modelId: string; system: string; prompt: string; tools: ToolSet; maxSteps: number; signal: AbortSignal },
    ): Promise<{ text: string; steps: number; finishReason: string }> {
      if (!chatModel) throw new ConflictError("No AI model is active on this installation");
      ledger.check(caller, false);
      const { ai, provider } = await load();
      const t0 = performance.now();
      const r = await ai.generateText({
        model: provider.chatModel(req.modelId),
        system: req.system,
        prompt: req.prompt,
        tools: req.tools,
        stopWhen: ai.stepCountIs(req.maxSteps),
        abortSignal: req.signal,
        maxRetries: 0,
      });
      const usage = r.totalUsage ?? r.usage;
      ledger.record(caller, {
        model: req.modelId,
        inputTokens: usage.inputTokens ?? 0,
        outputTokens: usage.outputTokens ?? 0,
        durationMs: Math.round(performance.now() - t0),
      });
      return { text: r.text, steps: r.steps.length, finishReason: r.finishReason };
    },
  };
  return api;
}
export type AiGateway = ReturnType<typeof createAiGateway>;
