import { z } from "@hono/zod-openapi";
import { PageQuery, pageSchema } from "../../schemas";

export const TenantSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    status: z.enum(["CREATING", "ACTIVE", "SUSPENDED", "DEACTIVATED", "DROPPED", "FAILED"]),
    degraded: z
      .boolean()
      .openapi({ description: "ACTIVE but its schema migration failed: requests answer 503 until the sweep succeeds" }),
    errorMessage: z.string().optional(),
    drop: z
      .object({
        state: z.enum(["RUNNING", "FINISHED"]),
        phase: z.enum(["ENGINE", "PLATFORM", "FILES", "DONE"]),
        deletedRows: z.number().int(),
        attempts: z.number().int(),
        requestedAt: z.string(),
        finishedAt: z.string().optional(),
        lastError: z.string().optional(),
      })
      .optional()
      .openapi({ description: "Progress of the drop job, once a drop was requested" }),
  })
  .openapi("Tenant");
export const TenantPage = pageSchema(TenantSchema, "TenantPage");
export const TenantListQuery = PageQuery.extend({ search: z.string().optional() });
export const CreateTenantBody = z
  .object({ slug: z.string().min(1), name: z.string().min(1) })
  .openapi("CreateTenantRequest");
export const UpdateTenantBody = z
  .object({ name: z.string().min(1).optional(), slug: z.string().optional() })
  .openapi("UpdateTenantRequest");
export const DropTenantBody = z
  .object({ confirm: z.string().openapi({ description: "The tenant's slug, typed again" }) })
  .openapi("DropTenantRequest");
