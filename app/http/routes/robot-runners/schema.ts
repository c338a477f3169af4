import { z } from "@hono/zod-openapi";
import { tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin, requireAuth } from "../../middleware/roles";
import { VariablesInput } from "../../schemas";
import { MAX_LONG_POLL_MS } from "../../../services/robot-runners/external-tasks";

export const common = { tags: ["robot-runners"], security: tenantSecurity, middleware: requireAdmin };
// The runner's token (Authorization: Bearer pmsr_…) is checked by tenantAuth; the operations refuse any other caller.
export const runnerCommon = { tags: ["robot-runners"], security: [{ bearerAuth: [] }], middleware: requireAuth };

export const RunnerSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    createdAt: z.string(),
    createdBy: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .openapi("RobotRunner");
export const RunnerWithTokenSchema = RunnerSchema.extend({
  token: z.string().openapi({ description: "Bearer token of the runner (pmsr_…), shown only in this response" }),
}).openapi("RobotRunnerWithToken");
export const CreateRunnerBody = z.object({ name: z.string().min(1).max(200) }).openapi("CreateRobotRunnerRequest");

const ms = (max: number) => z.number().int().min(1).max(max);
export const FetchAndLockBody = z
  .object({
    workerId: z.string().max(200).optional().openapi({ description: "Ignored: the token names the runner" }),
    maxTasks: z.number().int().min(1).max(100),
    asyncResponseTimeout: z.number().int().min(0).max(MAX_LONG_POLL_MS).optional(),
    usePriority: z.boolean().optional().openapi({ description: "Higher camunda:taskPriority first, then oldest" }),
    topics: z
      .array(
        z.object({
          topicName: z.string().min(1).max(64),
          lockDuration: ms(24 * 3600_000),
          variables: z
            .array(z.string().max(255))
            .max(1000)
            .optional()
            .openapi({ description: "Only these variables are handed over (absent: all)" }),
        }),
      )
      .min(1)
      .max(50),
  })
  .openapi("FetchAndLockRequest");
export const ExternalTaskSchema = z
  .object({
    id: z.string(),
    topicName: z.string(),
    workerId: z.string(),
    lockExpirationTime: z.string(),
    processInstanceId: z.string().nullable(),
    caseInstanceId: z
      .string()
      .nullable()
      .openapi({ description: "set instead of processInstanceId for a case's task" }),
    activityId: z.string(),
    retries: z.number().int(),
    errorMessage: z.string().nullable(),
    errorDetails: z.string().nullable(),
    priority: z.number().int(),
    variables: z
      .record(
        z.string(),
        z.object({ type: z.string(), value: z.unknown(), valueInfo: z.record(z.string(), z.unknown()) }),
      )
      .openapi({
        description:
          "Camunda typed values: {type: String | Integer | Long | Double | Boolean | Json | Null, value, valueInfo}",
      }),
    parameters: z.record(z.string(), z.unknown()),
  })
  .openapi("LockedExternalTask");

export const CompleteBody = z
  .object({
    workerId: z.string().optional(),
    variables: VariablesInput.optional().openapi({
      description: "Plain values, or Camunda typed values {type, value, valueInfo} (Bytes and File refused)",
    }),
    localVariables: VariablesInput.optional().openapi({
      description: "Accepted and not stored: Camunda keeps them on the task's own scope, which ends with it",
    }),
  })
  .openapi("CompleteExternalTaskRequest");
export const FailureBody = z
  .object({
    workerId: z.string().optional(),
    errorMessage: z.string().min(1).max(4000),
    errorDetails: z.string().max(60_000).optional(),
    retries: z.number().int().min(0).max(1000).optional(),
    retryTimeout: z
      .number()
      .int()
      .min(0)
      .max(30 * 24 * 3600_000)
      .optional(),
  })
  .openapi("ExternalTaskFailureRequest");
export const BpmnErrorBody = z
  .object({
    workerId: z.string().optional(),
    errorCode: z.string().min(1).max(255),
    errorMessage: z.string().max(4000).optional(),
    variables: VariablesInput.optional(),
  })
  .openapi("ExternalTaskBpmnErrorRequest");
export const UnlockBody = z.object({ workerId: z.string().optional() }).openapi("UnlockExternalTaskRequest");
export const ExtendLockBody = z
  .object({ workerId: z.string().optional(), newDuration: ms(24 * 3600_000) })
  .openapi("ExtendLockRequest");
export const FailureResultSchema = z
  .object({ retries: z.number().int(), state: z.enum(["EXECUTABLE", "DEADLETTER"]) })
  .openapi("ExternalTaskFailureResult");
