/**
 * A real OpenAI-compatible server on 127.0.0.1 for tests and benchmarks: /v1/models, /v1/embeddings (deterministic
 * vectors derived from the words of the text, so similar texts are near) and /v1/chat/completions (scripted answers,
 * tool calls, streaming). The service reaches it over HTTP exactly as it would reach OpenAI, Ollama or vLLM.
 */
export interface ScriptedAnswer {
  content?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  /** Answer this HTTP status with an error body instead (a failing model). */
  status?: number;
  /** With `status`: the OpenAI error code and message of the body (`insufficient_quota`: the provider's quota). */
  error?: { code: string; message: string };
  /** Wait this long before answering (a slow model). */
  delayMs?: number;
  /** Runs when the call arrives and is awaited before answering: something else happens while the model thinks. */
  whileThinking?: () => Promise<unknown>;
}

export interface FakeOpenAi {
  url: string;
  /** Requests received, by path. */
  calls: { path: string; body: Record<string, unknown> }[];
  /** Answers given in order to chat calls; when empty the server echoes the last user message. */
  script: ScriptedAnswer[];
  /** Makes the next `n` embedding calls answer 500 (retry tests). */
  failEmbeddings(n: number): void;
  /** Delays every embedding call (kill-during-indexing tests). */
  embeddingDelayMs: number;
  /** Delays every chat call (slow-model tests and benchmarks). */
  chatDelayMs: number;
  /** Chooses the answer per request (concurrent callers); when it returns undefined the script is used. */
  respond?: (body: Record<string, unknown>) => ScriptedAnswer | undefined;
  stop(): void;
}

const STOP = new Set(
  "a an the of to in on for and or is are be by with what how do does which when who at it this that".split(" "),
);

/** Words of a text, lower-cased, crudely stemmed and without stop words: what the fake embedding is made of. */
export const wordsOf = (text: string) =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((w) => !STOP.has(w))
    .map((w) => (w.length > 4 ? w.replace(/(ing|ed|es|s)$/, "").replace(/e$/, "") : w));

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A deterministic unit vector: each word adds ±1 at two hashed positions (feature hashing). */
export function fakeEmbedding(text: string, dims = 384): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of wordsOf(text)) {
    const h = hash(w);
    v[h % dims] += h & 1 ? 1 : -1;
    v[(h >>> 9) % dims] += h & 2 ? 1 : -1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

export function startFakeOpenAi(opts: { dims?: number } = {}): FakeOpenAi {
  const dims = opts.dims ?? 384;
  let failing = 0;
  const fake: FakeOpenAi = {
    url: "",
    calls: [],
    script: [],
    embeddingDelayMs: 0,
    chatDelayMs: 0,
    failEmbeddings: (n) => void (failing = n),
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const body = req.method === "POST" ? ((await req.json()) as Record<string, unknown>) : {};
      fake.calls.push({ path, body });
      if (path === "/v1/models")
        return Response.json({ object: "list", data: [{ id: "fake-chat" }, { id: "fake-embed" }] });
      if (path === "/v1/embeddings") {
        if (fake.embeddingDelayMs) await Bun.sleep(fake.embeddingDelayMs);
        if (failing > 0) {
          failing--;
          return Response.json({ error: { message: "scripted failure" } }, { status: 500 });
        }
        const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
        return Response.json({
          object: "list",
          model: body.model,
          data: input.map((t, index) => ({ object: "embedding", index, embedding: fakeEmbedding(t, dims) })),
          usage: { prompt_tokens: input.reduce((n, t) => n + tokens(t), 0), total_tokens: 0 },
        });
      }
      if (path === "/v1/chat/completions") {
        if (fake.chatDelayMs) await Bun.sleep(fake.chatDelayMs);
        return chat(fake, body);
      }
      return new Response("not found", { status: 404 });
    },
  });
  fake.url = `http://127.0.0.1:${server.port}/v1`;
  return fake;
}

async function chat(fake: FakeOpenAi, body: Record<string, unknown>): Promise<Response> {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  const last = [...messages].reverse().find((m) => m.role === "user");
  const answer = fake.respond?.(body) ??
    fake.script.shift() ?? { content: `echo: ${typeof last?.content === "string" ? last.content : ""}` };
  await answer.whileThinking?.();
  const delay = (answer.delayMs ?? 0) + fake.chatDelayMs;
  if (delay) await Bun.sleep(delay);
  if (answer.status)
    return Response.json({ error: answer.error ?? { message: "scripted model failure" } }, { status: answer.status });
  const prompt = messages.reduce((n, m) => n + tokens(JSON.stringify(m.content)), 0);
  const toolCalls = answer.toolCalls?.map((t, i) => ({
    id: `call_${i}`,
    type: "function",
    function: { name: t.name, arguments: JSON.stringify(t.arguments) },
  }));
  const usage = { prompt_tokens: prompt, completion_tokens: tokens(answer.content ?? "x"), total_tokens: 0 };
  const finish = toolCalls ? "tool_calls" : "stop";
  if (!body.stream)
    return Response.json({
      id: "chatcmpl-fake",
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: answer.content ?? null, tool_calls: toolCalls },
          finish_reason: finish,
        },
      ],
      usage,
    });
  const words = (answer.content ?? "").split(/(?<= )/);
  const events = [
    ...words.map((w) => ({ choices: [{ index: 0, delta: { role: "assistant", content: w } }] })),
    ...(toolCalls
      ? [{ choices: [{ index: 0, delta: { tool_calls: toolCalls.map((t, index) => ({ index, ...t })) } }] }]
      : []),
    { choices: [{ index: 0, delta: {}, finish_reason: finish }], usage },
  ];
  const sse = `${events.map((e) => `data: ${JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion.chunk", model: body.model, ...e })}\n\n`).join("")}data: [DONE]\n\n`;
  return new Response(sse, { headers: { "content-type": "text/event-stream" } });
}
