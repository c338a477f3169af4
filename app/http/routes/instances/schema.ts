import { z } from "@hono/zod-openapi";
import { PageQuery, pageSchema, VariablesInput } from "../../schemas";
import { PersonSchema } from "../../../services/people/people";

export const InstanceSchema = z
  .object({
    id: z.string(),
    businessKey: z.string().nullable(),
    definitionKey: z.string(),
    definitionId: z.string(),
    version: z.number().int(),
    type: z.string(),
    state: z.string(),
    suspended: z.boolean(),
    startTime: z.string(),
    endTime: z.string().nullable(),
    ended: z.boolean(),
    endReason: z.string().nullable(),
    startedBy: z.string().nullable(),
    parentInstanceId: z.string().nullable(),
  })
  .openapi("Instance");
export const InstancePage = pageSchema(InstanceSchema, "InstancePage");
export const ActiveTaskSchema = z
  .object({ id: z.string(), name: z.string(), activityId: z.string(), assignee: z.string().nullable() })
  .openapi("ActiveTask");
export const StartBody = z
  .object({
    definitionKey: z.string().min(1),
    businessKey: z.string().nullable().optional(),
    variables: VariablesInput.optional(),
  })
  .openapi("StartInstanceRequest");
export const StartedSchema = z
  .object({
    id: z.string(),
    businessKey: z.string().nullable(),
    definitionKey: z.string(),
    definitionId: z.string(),
    version: z.number().int(),
    type: z.string(),
    startTime: z.string(),
    ended: z.boolean(),
    activeTasks: z.array(ActiveTaskSchema),
  })
  .openapi("StartedInstance");
export const InstanceDetailSchema = InstanceSchema.extend({
  variables: z.record(z.string(), z.unknown()),
  activeTasks: z.array(
    z
      .object({ id: z.string(), name: z.string(), activityId: z.string(), assignee: z.string().nullable() })
      .passthrough(),
  ),
  activeActivityIds: z.array(z.string()),
  startedByUser: PersonSchema.nullable().optional().openapi({
    description: "GET /a/instances/{id}: who started it, display name and e-mail (null when started by no user)",
  }),
}).openapi("InstanceDetail");
export const ListQuery = PageQuery.extend({ type: z.enum(["BPMN", "CMMN"]).optional() });
export const SearchQuery = PageQuery.extend({ varName: z.string().min(1), varValue: z.string() });
export const DiagramQuery = z.object({ format: z.enum(["svg", "xml"]).optional() });
export const JobParam = z.object({
  jobId: z
    .string()
    .min(1)
    .openapi({ param: { name: "jobId", in: "path" } }),
});
export const FailedJobSchema = z
  .object({
    id: z.string(),
    instanceId: z.string().nullable(),
    businessKey: z.string().nullable(),
    definitionKey: z.string().nullable(),
    activityId: z.string(),
    kind: z.string(),
    state: z.string(),
    retries: z.number().int(),
    exception: z.string().nullable(),
    errorDetails: z
      .string()
      .nullable()
      .openapi({ description: "A robot runner's errorDetails, apart from the message" }),
    dueAt: z.string().nullable(),
    createdAt: z.string().nullable(),
  })
  .openapi("FailedJob");
