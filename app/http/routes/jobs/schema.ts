import { z } from "@hono/zod-openapi";

export const JobSchema = z
  .object({
    id: z.string(),
    instanceId: z.string().nullable().openapi({ description: "null for a timer start (it belongs to no instance)" }),
    definitionId: z.string(),
    activityId: z.string(),
    type: z.string().openapi({ description: "timer, async, incident, external (robot work), case-timer, case-agent" }),
    state: z.string().openapi({ description: "EXECUTABLE or DEADLETTER" }),
    dueAt: z.string(),
    retries: z.number().int(),
    exception: z.string().nullable().openapi({ description: "The last error message" }),
    errorDetails: z.string().nullable().openapi({ description: "A robot runner's errorDetails (stack trace)" }),
    topic: z.string().nullable().openapi({ description: "The robot key of robot work" }),
    lockExpiresAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Job");

export const JobExecutionSchema = z
  .object({
    id: z.string(),
    outcome: z.enum(["executed", "failed"]),
    error: z.string().nullable().openapi({ description: "Why the run failed" }),
    job: JobSchema.nullable().openapi({ description: "The job after the run; null once it is done" }),
  })
  .openapi("JobExecution");
