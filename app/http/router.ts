import { OpenAPIHono, type Hook } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { validationError } from "../services/validation";

/** Turns a zod failure into our 400 with fieldErrors (paths joined with dots). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const validationHook: Hook<any, AppEnv, any, any> = (result) => {
  if (!result.success) throw validationError(result.error.issues);
};

/** A router for one resource; every router shares the validation hook. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}
