import { PersonSchema } from "../../../services/people/people";
import { MAX_HISTORY_TTL_DAYS } from "../../../services/history/retention";
import { z } from "@hono/zod-openapi";
import { DeployResultSchema as DeployResult } from "../../../services/definitions/schemas";

export const KeyParam = z.object({
  key: z
    .string()
    .min(1)
    .openapi({ param: { name: "key", in: "path" } }),
});
export const VersionParams = KeyParam.extend({
  definitionId: z
    .string()
    .min(1)
    .openapi({ param: { name: "definitionId", in: "path" } }),
});
export const ActivityParams = KeyParam.extend({
  activityId: z
    .string()
    .min(1)
    .openapi({ param: { name: "activityId", in: "path" } }),
});
export const VersionQuery = z.object({ version: z.coerce.number().int().min(1).optional() });

export const DefinitionSchema = z
  .object({
    key: z.string(),
    name: z.string(),
    type: z.string(),
    definitionId: z.string(),
    version: z.number().int(),
    latestVersion: z.number().int(),
    publishedVersion: z.number().int().nullable(),
    publishedDefinitionId: z.string().nullable(),
    suspended: z.boolean(),
    enabled: z.boolean(),
    startFormKey: z.string().nullable(),
    deployedAt: z.string(),
  })
  .openapi("Definition");

export const VersionRowSchema = z
  .object({
    definitionId: z.string(),
    key: z.string(),
    name: z.string(),
    version: z.number().int(),
    published: z.boolean(),
    deploymentId: z.string(),
    createdAt: z.string(),
    type: z.string(),
  })
  .openapi("DefinitionVersion");

export const DeployResultSchema = DeployResult.openapi("DeployResult");

export const AttachmentPolicySchema = z
  .object({
    uploadMode: z.enum(["AD_HOC", "FORM_ONLY", "DISABLED"]),
    uploadRoles: z.array(z.string()).default([]),
    previewRoles: z.array(z.string()).default([]),
    replaceRoles: z.array(z.string()).default([]),
  })
  .openapi("AttachmentPolicy");

export const ConfigSchema = z
  .object({
    businessKeyTemplate: z.string().nullable(),
    attachmentPolicy: AttachmentPolicySchema.nullable(),
    mcpPolicy: z.enum(["NONE", "START_AND_READ", "START_AND_COMPLETE"]),
    historyTimeToLive: z.number().int().nullable(),
  })
  .openapi("DefinitionConfig");

/** Days an ended instance is kept before the history cleanup removes it (null: not set). */
export const TtlDays = z
  .number()
  .int()
  .min(0)
  .max(MAX_HISTORY_TTL_DAYS)
  .nullable()
  .openapi({ description: "Days an ended instance is kept (0 to 36500); null: not set" });

export const ConfigBody = z
  .object({
    businessKeyTemplate: z.string().nullable().optional(),
    attachmentPolicy: AttachmentPolicySchema.nullable().optional(),
    mcpPolicy: z.enum(["NONE", "START_AND_READ", "START_AND_COMPLETE"]).optional(),
    historyTimeToLive: TtlDays.optional(),
  })
  .openapi("DefinitionConfigRequest");

export const MonitorSchema = z
  .object({
    definitionKey: z.string(),
    definitionName: z.string(),
    version: z.number().int(),
    bpmnXml: z.string(),
    runningInstances: z.number().int(),
    runningInstancesOtherVersions: z.number().int(),
    versions: z.array(z.object({ version: z.number().int(), runningInstances: z.number().int() })),
    activities: z.array(
      z.object({
        activityId: z.string(),
        activityName: z.string(),
        activityType: z.string(),
        count: z.number().int(),
        byReason: z.record(z.string(), z.number().int()),
      }),
    ),
  })
  .openapi("Monitor");

export const MonitorItemSchema = z
  .object({
    instanceId: z.string(),
    businessKey: z.string().nullable(),
    startTime: z.string(),
    reason: z.string(),
    taskId: z.string().optional(),
    assignee: z.string().nullable().optional(),
    assigneeUser: PersonSchema.nullable().optional().openapi({
      description: "the assignee's display name and e-mail (null when nobody holds the task or for other reasons)",
    }),
    dueDate: z.string().nullable().optional(),
    errorMessage: z.string().nullable().optional(),
  })
  .openapi("MonitorItem");

export const FileUpload = z
  .object({ file: z.any().openapi({ type: "string", format: "binary" }) })
  .openapi("DefinitionFileUpload");
