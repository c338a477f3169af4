import { z } from "@hono/zod-openapi";

export const TemplateKeyParam = z.object({ key: z.string().min(1).max(100) });
export const TenantTemplateSchema = z
  .object({
    key: z.string(),
    name: z.string(),
    version: z.number().int(),
    subscription: z
      .object({
        status: z.enum(["SUBSCRIBED", "DIVERGED"]).openapi({
          description: "DIVERGED: the tenant deployed its own version; template versions are no longer applied",
        }),
        appliedVersion: z.number().int().nullable(),
        definitionVersion: z.number().int().nullable(),
        since: z.string(),
      })
      .nullable(),
  })
  .openapi("TenantProcessTemplate");
export const SubscribeQuery = z.object({
  adopt: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "deploy the template's version over the tenant's own definition of the key" }),
});
