import { z } from "zod";
import { listAiModels } from "../../ai-models/models";
import { deployDefinitionFile } from "../../definitions/deploy";
import { listDefinitions } from "../../definitions/read";
import { DeployResultSchema, ValidationSchema } from "../../definitions/schemas";
import { validateProcess } from "../../definitions/validate";
import { definitionVersions, definitionXml } from "../../definitions/versions";
import { listOf, tool } from "../descriptor";

const key = z.string().min(1).describe("definition key (the process or case id in the model)");
const read = { readOnly: true, destructive: false, idempotent: true };

const Definition = z.object({
  key: z.string(),
  name: z.string(),
  type: z.string(),
  latestVersion: z.number().int(),
  publishedVersion: z.number().int().nullable(),
  publishedDefinitionId: z.string().nullable(),
  suspended: z.boolean(),
  enabled: z.boolean(),
});
const VersionRow = z.object({
  definitionId: z.string(),
  version: z.number().int(),
  published: z.boolean(),
  createdAt: z.string(),
});

export const processTools = [
  tool({
    name: "svc_process_list",
    title: "List process definitions",
    description:
      "The tenant's definitions (processes and cases) with their latest and published version. Instances start the published version; a definition never published starts its latest.",
    input: z.object({}),
    output: listOf(Definition),
    ...read,
    run: ({ ctx }) => ({ items: listDefinitions({ ctx }) }),
    summary: (o) => `${o.items.length} definition(s)`,
  }),
  tool({
    name: "svc_process_versions",
    title: "Definition version history",
    description: "The versions of a definition, newest first, with the published one marked.",
    input: z.object({ key }),
    output: listOf(VersionRow),
    ...read,
    run: ({ ctx, input }) => ({ items: definitionVersions({ ctx, input }) }),
    summary: (o) => `${o.items.length} version(s)`,
  }),
  tool({
    name: "svc_process_get_xml",
    title: "Definition XML",
    description:
      "The BPMN or CMMN XML of one version of a definition, as deployed (definitionId from svc_process_versions).",
    input: z.object({ key, definitionId: z.string().min(1) }),
    output: z.object({ key: z.string(), definitionId: z.string(), xml: z.string() }),
    ...read,
    run: ({ ctx, input }) => ({ ...input, xml: definitionXml({ ctx, input }) }),
    summary: (o) => o.xml,
  }),
  tool({
    name: "svc_process_validate",
    title: "Validate a BPMN",
    description:
      "Checks a BPMN without deploying it: orphans, dead ends, gateways with no default flow, a missing diagram section (a warning: the model runs, but has no picture), plus the deploy warnings. valid=false: it would not deploy.",
    input: z.object({ xml: z.string().min(1).describe("the BPMN XML") }),
    output: ValidationSchema,
    readOnly: true,
    destructive: false,
    idempotent: true,
    run: ({ ctx, input }) => validateProcess({ ctx, input }),
    summary: (o) =>
      [
        o.valid ? `Valid (${o.processes.join(", ")})` : "Not deployable",
        ...o.findings.map((f) => `${f.severity} ${f.code}${f.elementId ? ` ${f.elementId}` : ""}: ${f.message}`),
        ...o.warnings,
      ].join("\n"),
  }),
  tool({
    name: "svc_process_deploy",
    title: "Deploy a definition version",
    description:
      "Deploys a BPMN (or CMMN) file as a new version of each definition in it. Deploying is not publishing: while a published version exists, the new version starts no instances. No tool publishes a definition.",
    input: z.object({
      fileName: z.string().min(1).max(200).describe("file name with its extension: .bpmn, .bpmn20.xml or .cmmn"),
      xml: z.string().min(1).describe("the model's XML"),
    }),
    output: DeployResultSchema,
    readOnly: false,
    destructive: false,
    run: ({ ctx, input }) => deployDefinitionFile({ ctx, input: { name: input.fileName, text: input.xml } }),
    summary: (o) =>
      `Deployed ${o.definitions.map((d) => `${d.key} v${d.version}`).join(", ")} (not published)${
        o.warnings.length ? `; warnings: ${o.warnings.join("; ")}` : ""
      }`,
  }),
  tool({
    name: "svc_ai_model_list",
    title: "AI model catalogue",
    description: "The configured AI models; `id` is what svc_agent_create takes as the model. active=false: no model.",
    input: z.object({}),
    output: z.object({
      active: z.boolean(),
      chatModel: z.string().nullable(),
      embeddingModel: z.string().nullable(),
      models: z.array(
        z.object({ id: z.string(), kind: z.string(), provider: z.string(), contextSize: z.number().nullable() }),
      ),
    }),
    ...read,
    run: ({ ctx }) => listAiModels({ ctx }),
    summary: (o) => (o.active ? `${o.models.length} model(s); chat model ${o.chatModel}` : "No active AI model"),
  }),
];
