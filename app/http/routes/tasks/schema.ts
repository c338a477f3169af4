import { VariablesInput } from "../../schemas";
import { z } from "@hono/zod-openapi";
import * as shared from "../../../services/tasks/schemas";

export const TaskSchema = shared.TaskSchema.openapi("Task");
export const TaskDetailSchema = shared.TaskDetailSchema.openapi("TaskDetail");
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
