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
      .object({
        id: z.string(),
        name: z.string(),
        activityId: z.string(),
        assignee: z.string().nullable(),
        assigneeUser: PersonSchema.nullable().optional().describe("the assignee's display name and e-mail"),
      })
      .passthrough(),
  ),
  activeActivityIds: z.array(z.string()),
  startedByUser: PersonSchema.nullable().optional().openapi({
    description: "GET /a/instances/{id}: who started it, display name and e-mail (null when started by no user)",
  }),
}).openapi("InstanceDetail");
const instant = z
  .string()
  .datetime({ offset: true })
  .transform((s) => Date.parse(s))
  .optional();
/** The spec names page, size and type; the cockpit's filters are ours (docs/decisions.md). */
export const ListQuery = PageQuery.extend({
  type: z.enum(["BPMN", "CMMN"]).optional(),
  state: z
    .enum(["running", "ended", "all", "active", "suspended", "completed", "cancelled"])
    .optional()
    .openapi({ description: "running (default), ended (most recently ended first), all, or one state" }),
  definitionKey: z.string().trim().min(1).max(200).optional(),
  version: z.coerce.number().int().min(1).optional().openapi({ description: "with definitionKey" }),
  businessKey: z.string().min(1).max(200).optional().openapi({ description: "business keys starting with it" }),
  varName: z.string().trim().min(1).max(200).optional().openapi({ description: "with varValue (compared as text)" }),
  varValue: z.string().max(1000).optional(),
  startedAfter: instant.openapi({ description: "ISO date-time: started at or after it" }),
  startedBefore: instant.openapi({ description: "ISO date-time: started before it" }),
});
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
