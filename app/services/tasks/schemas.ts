import { z } from "zod";
import { PersonSchema } from "../people/people";

/** A task as the REST routes (app/http/routes/tasks) and the MCP run tools answer it: one schema for both. */
export const TaskSchema = z.object({
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
  assigneeUser: PersonSchema.nullable()
    .optional()
    .describe("the assignee's display name and e-mail (GET /a/tasks, /a/tasks/completed, /a/tasks/{id})"),
  completedByUser: PersonSchema.nullable()
    .optional()
    .describe("who completed the task, name and e-mail (GET /a/tasks, /a/tasks/completed, /a/tasks/{id})"),
});

/** A task with the form schema of the version locked when it was created (null when it has none). */
export const TaskDetailSchema = TaskSchema.extend({
  aiSuggestAvailable: z
    .boolean()
    .optional()
    .describe("GET /a/tasks/{id}: whether POST /a/tasks/{id}/ai-suggest can answer (a chat model is active)"),
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
});
