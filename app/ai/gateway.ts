import type { Database } from "bun:sqlite";
import type { FlexibleSchema, ModelMessage, ToolSet } from "ai";
import { ConflictError, ServiceUnavailableError } from "../../engine/errors";
import { safeFetch } from "../outbound";
import { type AiSettings, modelCatalogue, type ModelEntry, providerName } from "./catalogue";
import { type AiCaller, createUsageLedger } from "./usage";

type OpenAiProvider = ReturnType<typeof import("@ai-sdk/openai-compatible").createOpenAICompatible>;

/** What a chat call sends: the instructions and the user's text. */
export interface ChatPrompt {
  system?: string;
  prompt: string;
}

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

  /** The checks every metered chat call makes before anything else: 409 with no active model, 402 over a quota. */
  const check = (caller: AiCaller): string => {
    if (!chatModel) throw new ConflictError("No AI model is active on this installation");
    ledger.check(caller, true);
    return chatModel;
  };
  /** The SDK and the chat model, loaded on first use. */
  const chat = async (id: string) => {
    const { ai, provider } = await load();
    return { ai, model: provider.chatModel(id) };
  };
  const record = (caller: AiCaller, u: { inputTokens?: number; outputTokens?: number }, t0: number) =>
    ledger.record(caller, {
      model: chatModel ?? "",
      inputTokens: u.inputTokens ?? 0,
      outputTokens: u.outputTokens ?? 0,
      durationMs: Math.round(performance.now() - t0),
    });

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
    async generate(caller: AiCaller, prompt: ChatPrompt): Promise<string> {
      const { ai, model } = await chat(check(caller));
      const t0 = performance.now();
      const r = await ai.generateText({ model, ...prompt, maxRetries: 0 }).catch(unavailable);
      record(caller, r.usage, t0);
      return r.text;
    },

    /** A structured answer (JSON output validated against `schema`); same checks and accounting as `generate`. */
    async generateObject<T>(caller: AiCaller, prompt: ChatPrompt, schema: FlexibleSchema<T>): Promise<T> {
      const { ai, model } = await chat(check(caller));
      const t0 = performance.now();
      const r = await ai
        .generateText({ model, ...prompt, output: ai.Output.object({ schema }), maxRetries: 0 })
        .catch(unavailable);
      record(caller, r.usage, t0);
      return r.output as T;
    },

    /**
     * A streamed answer, text piece by piece. Quotas are checked before the first byte (402), 409 with no active
     * model. Usage is recorded when the stream ends; a stream the client abandons is recorded with what it had
     * received (output tokens estimated at four characters each), so a cut connection still counts.
     */
    stream(caller: AiCaller, prompt: ChatPrompt): AsyncGenerator<string> {
      // Checked now, before the caller answers 200 and starts its stream; the generator itself runs lazily.
      const id = check(caller);
      return (async function* () {
        const { ai, model } = await chat(id);
        const t0 = performance.now();
        const abort = new AbortController();
        const r = ai.streamText({ model, ...prompt, maxRetries: 0, abortSignal: abort.signal });
        let chars = 0;
        let done = false;
        try {
          for await (const part of r.fullStream) {
            if (part.type === "error") unavailable(part.error);
            if (part.type === "text-delta") {
              chars += part.text.length;
              yield part.text;
            }
          }
          done = true;
          record(caller, await r.totalUsage, t0);
        } finally {
          if (!done) {
            abort.abort();
            const input = Math.ceil(((prompt.system ?? "").length + prompt.prompt.length) / 4);
            record(caller, { inputTokens: input, outputTokens: Math.ceil(chars / 4) }, t0);
          }
        }
      })();
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

    /**
     * One model call of an agent loop over a conversation: the tools it calls that have an `execute` run at once
     * (their results are in `messages`), the others come back in `toolCalls` for the caller to run. Same checks and
     * accounting as `generateWithTools`.
     */
    async generateTurn(
      caller: AiCaller,
      req: { modelId: string; system: string; messages: ModelMessage[]; tools: ToolSet; signal: AbortSignal },
    ) {
      if (!chatModel) throw new ConflictError("No AI model is active on this installation");
      ledger.check(caller, false);
      const { ai, provider } = await load();
      const t0 = performance.now();
      const r = await ai.generateText({
        model: provider.chatModel(req.modelId),
        system: req.system,
        messages: req.messages,
        tools: req.tools,
        stopWhen: ai.stepCountIs(1),
        abortSignal: req.signal,
        maxRetries: 0,
      });
      const usage = { inputTokens: r.usage.inputTokens ?? 0, outputTokens: r.usage.outputTokens ?? 0 };
      ledger.record(caller, { model: req.modelId, ...usage, durationMs: Math.round(performance.now() - t0) });
      return {
        text: r.text,
        // An invalid call (an unknown tool, arguments its schema refuses) already has its error among the messages.
        toolCalls: r.toolCalls.map((c) => ({
          id: c.toolCallId,
          name: c.toolName,
          input: c.input as Record<string, unknown>,
          invalid: "invalid" in c && c.invalid ? String((c as { error?: unknown }).error ?? "invalid call") : null,
        })),
        messages: r.response.messages as ModelMessage[],
        usage,
        durationMs: Math.round(performance.now() - t0),
      };
    },
  };
  return api;
}
/** A model that cannot be reached or answers with an error is the installation's trouble, not the caller's: 503. */
function unavailable(e: unknown): never {
  if (e instanceof ConflictError) throw e;
  throw new ServiceUnavailableError(`The AI model could not answer: ${e instanceof Error ? e.message : String(e)}`);
}

export type AiGateway = ReturnType<typeof createAiGateway>;
