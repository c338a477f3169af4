import { z } from "zod";
import { getProcessDoc, proposeProcessDoc } from "../../definitions/documentation";
import { DocProposalSchema, ProcessDocSchema } from "../../definitions/schemas";
import { tool } from "../descriptor";

const key = z.string().min(1).describe("definition key");

export const documentationTools = [
  tool({
    name: "svc_process_doc_get",
    title: "Read a process description",
    description: "The process's description (Markdown); null when it has none yet.",
    input: z.object({ key }),
    output: ProcessDocSchema,
    readOnly: true,
    destructive: false,
    idempotent: true,
    run: ({ ctx, input }) => getProcessDoc({ ctx, input }),
    summary: (o) => o.description ?? `Process ${o.key} has no description yet`,
  }),
  tool({
    name: "svc_process_doc_propose",
    title: "Propose a process description",
    description:
      "The AI model proposes a description of the process from its BPMN (`xml` when given, the latest deployed version otherwise). Writes nothing: the process owner saves it in the application.",
    input: z.object({ key, xml: z.string().optional().describe("BPMN to describe instead of the deployed version") }),
    output: DocProposalSchema,
    readOnly: true,
    destructive: false,
    run: ({ ctx, input }) => proposeProcessDoc({ ctx, input }),
    summary: (o) => o.description,
  }),
];
