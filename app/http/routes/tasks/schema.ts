import { VariablesInput } from "../../schemas";
import { z } from "@hono/zod-openapi";

export const TaskSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    activityId: z.string(),
    instanceId: z.string(),
    businessKey: z.string().nullable(),
    definitionKey: z.string(),
    definitionId: z.string(),
    assignee: z.string().nullable(),
    owner: z.string().nullable(),
    candidateUsers: z.array(z.string()),
    candidateGroups: z.array(z.string()),
    created: z.string(),
    dueDate: z.string().nullable(),
    priority: z.number().int(),
    formKey: z.string().nullable(),
    formVersionId: z.string().nullable(),
    state: z.string(),
    completedAt: z.string().nullable(),
    completedBy: z.string().nullable(),
    channel: z.string().nullable(),
  })
  .openapi("Task");
export const TaskDetailSchema = TaskSchema.extend({
  form: z
    .object({
      versionId: z.string(),
      num: z.number().int(),
      processKey: z.string(),
      formKey: z.string(),
      name: z.string(),
      schema: z.record(z.string(), z.unknown()),
    })
    .nullable(),
}).openapi("TaskDetail");
const boolish = z
  .union([z.boolean(), z.enum(["true", "false"])])
  .transform((v) => v === true || v === "true")
  .optional();
export const TaskListQuery = z.object({
  page: z.coerce.number().int().min(0).optional(),
  size: z.coerce.number().int().min(1).optional(),
  mine: boolish,
  instanceId: z.string().optional(),
});
export const CompletedQuery = z.object({
  page: z.coerce.number().int().min(0).optional(),
  size: z.coerce.number().int().min(1).optional(),
});
export const VariablesBody = z.object({ variables: VariablesInput }).openapi("TaskVariablesRequest");
export const CompleteBody = z.object({ variables: VariablesInput.optional() }).openapi("CompleteTaskRequest");
export const DelegateBody = z.object({ userId: z.string().min(1) }).openapi("DelegateTaskRequest");
export const CommentBody = z.object({ message: z.string().trim().min(1).max(10_000) }).openapi("AddCommentRequest");
export const CommentSchema = z
  .object({ id: z.string(), userId: z.string().nullable(), message: z.string(), time: z.string() })
  .openapi("TaskComment");
