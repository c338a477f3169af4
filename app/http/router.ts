import { OpenAPIHono, type Hook } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { BadRequestError } from "../services/errors";

/** Turns a zod failure into our 400 with fieldErrors (paths joined with dots). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const validationHook: Hook<any, AppEnv, any, any> = (result) => {
  if (!result.success) {
    const issues = result.error.issues;
    const fieldErrors = issues.map((i) => ({ field: i.path.map(String).join(".") || "(body)", message: i.message }));
    throw new BadRequestError(
      `Validation failed: ${fieldErrors.map((f) => `${f.field} ${f.message}`).join("; ")}`,
      fieldErrors,
    );
  }
};

/** A router for one resource; every router shares the validation hook. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}
