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
