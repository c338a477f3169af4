import { z } from "@hono/zod-openapi";

export const ErrorSchema = z
  .object({
    status: z.number().int(),
    error: z.string(),
    message: z.string(),
    path: z.string(),
    timestamp: z.string(),
    fieldErrors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .openapi("Error");

const err = (description: string) => ({ description, content: { "application/json": { schema: ErrorSchema } } });

/** Error responses every route may give; spread into each createRoute's `responses`. */
export const errorResponses = {
  400: err("Invalid request"),
  401: err("Not authenticated"),
  403: err("Not permitted"),
  404: err("Not found"),
  409: err("Conflict"),
  422: err("Unprocessable"),
  429: err("Too many requests"),
  500: err("Internal error"),
  503: err("Tenant unavailable"),
} as const;

/** Security requirements for OpenAPI operations. */
export const tenantSecurity: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKey: [] }];
export const userSecurity: Record<string, string[]>[] = [{ bearerAuth: [] }];
