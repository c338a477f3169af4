import { VariablesInput } from "../../schemas";
import { z } from "@hono/zod-openapi";

export const KeyParam = z.object({
  key: z
    .string()
    .min(1)
    .openapi({ param: { name: "key", in: "path" } }),
});

export const DecisionSummarySchema = z
  .object({
    key: z.string(),
    name: z.string(),
    version: z.number().int(),
    deploymentId: z.string(),
    sourceTemplate: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("DecisionSummary");

const TableSchema = z
  .object({
    hitPolicy: z.enum(["UNIQUE", "FIRST", "PRIORITY", "ANY", "COLLECT", "RULE ORDER", "OUTPUT ORDER"]),
    aggregation: z.enum(["SUM", "MIN", "MAX", "COUNT"]).optional(),
    inputs: z.array(
      z.object({
        id: z.string(),
        label: z.string().optional(),
        expression: z.string(),
        typeRef: z.string().optional(),
        inputValues: z.string().optional(),
      }),
    ),
    outputs: z.array(
      z.object({
        id: z.string(),
        name: z.string().optional(),
        label: z.string().optional(),
        typeRef: z.string().optional(),
        outputValues: z.string().optional(),
        defaultOutputEntry: z.string().optional(),
      }),
    ),
    rules: z.array(
      z.object({
        id: z.string(),
        inputEntries: z.array(z.string()),
        outputEntries: z.array(z.string()),
        description: z.string().optional(),
      }),
    ),
  })
  .openapi("DecisionTable");

export const DecisionDetailSchema = DecisionSummarySchema.extend({
  table: TableSchema.nullable(),
  xml: z.string(),
  versions: z.array(
    z.object({
      version: z.number().int(),
      deploymentId: z.string(),
      createdAt: z.string(),
      createdBy: z.string().nullable(),
    }),
  ),
}).openapi("DecisionDetail");

export const DeployedSchema = z
  .object({ decisions: z.array(z.object({ key: z.string(), name: z.string(), version: z.number().int() })) })
  .openapi("DeployedDecisions");

export const FileUpload = z
  .object({ file: z.any().openapi({ type: "string", format: "binary" }) })
  .openapi("DmnFileUpload");
export const TableEditBody = z.object({ table: TableSchema }).openapi("DecisionTableEdit");
export const EvaluateBody = z.object({ variables: VariablesInput.default({}) }).openapi("EvaluateDecisionRequest");
export const EvaluateResult = z
  .object({ result: z.unknown(), matchedRules: z.array(z.string()) })
  .openapi("EvaluateDecisionResult");
