import { z } from "@hono/zod-openapi";

/** Query parameters of paginated lists (zero-based page). */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(0).optional().openapi({ example: 0 }),
  size: z.coerce.number().int().min(1).optional().openapi({ example: 20 }),
});

/** The spec's paginated envelope around `item`. */
export function pageSchema<T extends z.ZodTypeAny>(item: T, name: string) {
  return z
    .object({
      content: z.array(item),
      number: z.number().int(),
      size: z.number().int(),
      totalElements: z.number().int(),
      totalPages: z.number().int(),
    })
    .openapi(name);
}

export const IdParam = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" } }) });
export const TenantRoleSchema = z.enum(["ADMIN", "MODELER", "MANAGER", "USER"]);
