/** What the service knows of the configured model endpoint (AI_BASE_URL, AI_MODEL, AI_EMBEDDING_MODEL). */
export interface AiSettings {
  baseUrl: string | null;
  apiKey: string | null;
  model: string | null;
  embeddingModel: string | null;
}

export interface ModelEntry {
  id: string;
  kind: "chat" | "embedding";
  provider: string;
  /** Context window in tokens where the model is known, else null. */
  contextSize: number | null;
}

// Context windows of common models, so the catalogue can say more than the name; unknown models answer null.
const KNOWN_CONTEXT: Record<string, number> = {
  "gpt-4o": 128_000,
  "gpt-4o-mini": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-4.1-mini": 1_047_576,
  "text-embedding-3-small": 8191,
  "text-embedding-3-large": 8191,
  "nomic-embed-text": 8192,
  "all-minilm": 512,
  "llama3.1": 131_072,
  "qwen2.5": 32_768,
};

const contextOf = (id: string) => KNOWN_CONTEXT[id] ?? KNOWN_CONTEXT[id.split(":")[0]] ?? null;

/** The provider's name as shown: the endpoint's host ("api.openai.com", "127.0.0.1:11434"). */
export function providerName(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return "openai-compatible";
  }
}

/**
 * The models this installation may call. No base URL, or neither model named, is the defined "no active model"
 * state: the list is empty and every AI feature checks `active` before calling.
 */
export function modelCatalogue(s: AiSettings): ModelEntry[] {
  if (!s.baseUrl) return [];
  const provider = providerName(s.baseUrl);
  const out: ModelEntry[] = [];
  if (s.model) out.push({ id: s.model, kind: "chat", provider, contextSize: contextOf(s.model) });
  if (s.embeddingModel)
    out.push({ id: s.embeddingModel, kind: "embedding", provider, contextSize: contextOf(s.embeddingModel) });
  return out;
}
