import { VariablesInput } from "../../schemas";
import { z } from "@hono/zod-openapi";
import * as shared from "../../../services/tasks/schemas";
import { PersonSchema } from "../../../services/people/people";

export const TaskSchema = shared.TaskSchema.openapi("Task");
export const TaskDetailSchema = shared.TaskDetailSchema.openapi("TaskDetail");
const boolish = z
  .union([z.boolean(), z.enum(["true", "false"])])
  .transform((v) => v === true || v === "true")
  .optional();
const word = z.string().trim().min(1).max(200).optional();
const instant = z
  .string()
  .datetime({ offset: true })
  .transform((s) => Date.parse(s))
  .optional();
/** The tasklist's filters (GET /a/tasks and /a/tasks/count): the spec names page, size and mine; the rest are ours. */
export const TaskFilterQuery = z.object({
  mine: boolish,
  instanceId: z.string().optional(),
  processKey: word.openapi({ description: "only tasks of this process (or case) key" }),
  candidateGroup: word.openapi({ description: "only tasks offered to this group (a process role key)" }),
  assignee: word.openapi({ description: "only tasks assigned to this user id" }),
  unassigned: boolish.openapi({ description: "only tasks nobody holds (not with assignee)" }),
  dueAfter: instant.openapi({ description: "ISO date-time: due at or after it (tasks without a due date excluded)" }),
  dueBefore: instant.openapi({ description: "ISO date-time: due before it (tasks without a due date excluded)" }),
  search: z.string().max(200).optional().openapi({
    description: "every word must appear in the task name or the business key (ASCII letters in any case)",
  }),
  varName: word.openapi({ description: "with varValue: tasks of instances holding that variable value (as text)" }),
  varValue: z.string().max(1000).optional(),
  sort: z
    .enum(["created", "due", "priority", "name"])
    .optional()
    .openapi({ description: "created (newest first, default), due (soonest, none last), priority (highest), name" }),
});
export const TaskListQuery = TaskFilterQuery.extend({
  page: z.coerce.number().int().min(0).optional(),
  size: z.coerce.number().int().min(1).optional(),
});
export const CompletedQuery = z.object({
  page: z.coerce.number().int().min(0).optional(),
  size: z.coerce.number().int().min(1).optional(),
});
export const TaskCountSchema = z.object({ count: z.number().int() }).openapi("TaskCount");
export const VariablesBody = z.object({ variables: VariablesInput }).openapi("TaskVariablesRequest");
export const CompleteBody = z.object({ variables: VariablesInput.optional() }).openapi("CompleteTaskRequest");
export const DelegateBody = z.object({ userId: z.string().min(1) }).openapi("DelegateTaskRequest");
export const CommentBody = z.object({ message: z.string().trim().min(1).max(10_000) }).openapi("AddCommentRequest");
export const CommentSchema = z
  .object({
    id: z.string(),
    userId: z.string().nullable(),
    author: PersonSchema.nullable().describe("who wrote it, display name and e-mail (null for no user)"),
    message: z.string(),
    time: z.string(),
  })
  .openapi("TaskComment");
