import { listKnowledgeBases } from "../knowledge-bases/bases";
import { assertModeler } from "./agents";
import type { AgentsCtx } from "./store";

export interface KnowledgeSuggestion {
  id: string;
  name: string;
  description: string | null;
  isGlobal: boolean;
  score: number;
}

const words = (s: string) =>
  new Set(
    (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
      .filter((w) => w.length > 2)
      .map((w) => (w.length > 4 ? w.replace(/(ing|ed|es|s)$/, "") : w)),
  );

/**
 * The existing knowledge bases relevant to a step (svc_agent_suggest_knowledge): the bases the tenant sees, ranked
 * by the overlap of their name and description with the step's description (BM25-like: shared words weighted by
 * rarity across the bases). Bases sharing no word are left out. No model call: it works with no active model.
 */
export function suggestKnowledge({
  ctx,
  input,
}: {
  ctx: AgentsCtx;
  input: { text: string; limit?: number };
}): KnowledgeSuggestion[] {
  assertModeler(ctx);
  const query = words(input.text);
  const bases = listKnowledgeBases({ ctx }).map((b) => ({ b, w: words(`${b.name} ${b.description ?? ""}`) }));
  const df = new Map<string, number>();
  for (const { w } of bases) for (const t of w) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(1 + bases.length / (df.get(t) ?? 1));
  return bases
    .map(({ b, w }) => ({
      id: b.id,
      name: b.name,
      description: b.description,
      isGlobal: b.isGlobal,
      score: Number(
        [...query]
          .filter((t) => w.has(t))
          .reduce((n, t) => n + idf(t), 0)
          .toFixed(4),
      ),
    }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .slice(0, input.limit ?? 5);
}
