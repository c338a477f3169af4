import { z } from "zod";
import { addKnowledgeText, MAX_KB_TEXT_CHARS } from "../../knowledge-bases/add-text";
import { createKnowledgeBase, listKnowledgeBases } from "../../knowledge-bases/bases";
import { linkProcess } from "../../knowledge-bases/links";
import { listOf, tool } from "../descriptor";

const Base = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  isGlobal: z.boolean(),
});

export const knowledgeTools = [
  tool({
    name: "svc_kb_list",
    title: "List knowledge bases",
    description: "The tenant's knowledge bases, then the global ones every tenant sees.",
    input: z.object({}),
    output: listOf(Base),
    readOnly: true,
    destructive: false,
    idempotent: true,
    run: ({ ctx }) => ({ items: listKnowledgeBases({ ctx }) }),
    summary: (o) => `${o.items.length} knowledge base(s)`,
  }),
  tool({
    name: "svc_kb_create",
    title: "Create a knowledge base",
    description: "Creates a knowledge base of the tenant (isGlobal: shared by every tenant, SUPER_ADMIN only).",
    input: z.object({
      name: z.string().min(1).max(200),
      description: z.string().max(2000).optional(),
      isGlobal: z.boolean().optional(),
    }),
    output: Base,
    readOnly: false,
    destructive: false,
    run: ({ ctx, input }) => createKnowledgeBase({ ctx, input }),
    summary: (o) => `Created knowledge base '${o.name}' (${o.id})`,
  }),
  tool({
    name: "svc_kb_add_text",
    title: "Add a text to a knowledge base",
    description: `Adds a text (plain or Markdown) as a document of a knowledge base and queues its indexing. At most ${MAX_KB_TEXT_CHARS.toLocaleString("en")} characters per call.`,
    input: z.object({
      id: z.string().min(1).describe("knowledge base id"),
      title: z.string().min(1).max(200).describe("document title (becomes its file name)"),
      text: z.string().min(1).describe(`at most ${MAX_KB_TEXT_CHARS} characters`),
      markdown: z.boolean().optional(),
    }),
    output: z.object({ id: z.string(), status: z.string(), fileName: z.string() }),
    readOnly: false,
    destructive: false,
    run: ({ ctx, input }) => addKnowledgeText({ ctx, input }),
    summary: (o) => `Document ${o.fileName} (${o.id}) stored, indexing ${o.status}`,
  }),
  tool({
    name: "svc_kb_link_process",
    title: "Link a knowledge base to a process",
    description: "Links a knowledge base to a process, so the process's AI steps retrieve from it.",
    input: z.object({ definitionKey: z.string().min(1), id: z.string().min(1).describe("knowledge base id") }),
    output: z.object({ definitionKey: z.string(), knowledgeBaseId: z.string() }),
    readOnly: false,
    destructive: false,
    run: ({ ctx, input }) => linkProcess({ ctx, input }),
    summary: (o) => `Linked knowledge base ${o.knowledgeBaseId} to process ${o.definitionKey}`,
  }),
];
