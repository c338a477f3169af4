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

/** Limits of the process, case and decision variables a request may send (docs/limits.md). */
export const MAX_VARIABLE_NAME_LENGTH = 255;
export const MAX_VARIABLES_PER_REQUEST = 1000;

/**
 * The `variables` object of a request: names of at most 255 characters, at most 1000 of them (400 otherwise). The
 * refusal quotes only the start of an over-long name, so a megabyte of name is not echoed back.
 */
export const VariablesInput = z.record(z.string(), z.unknown()).superRefine((v, ctx) => {
  const names = Object.keys(v);
  if (names.length > MAX_VARIABLES_PER_REQUEST)
    ctx.addIssue({ code: "custom", message: `at most ${MAX_VARIABLES_PER_REQUEST} variables per request` });
  const long = names.find((n) => n.length > MAX_VARIABLE_NAME_LENGTH);
  if (long !== undefined)
    ctx.addIssue({
      code: "custom",
      message: `a variable name has at most ${MAX_VARIABLE_NAME_LENGTH} characters ('${long.slice(0, 32)}...' has ${long.length})`,
    });
});
