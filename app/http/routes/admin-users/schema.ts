import { z } from "@hono/zod-openapi";
import { PageQuery, pageSchema } from "../../schemas";

export const UserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string().nullable(),
    roles: z.array(z.string()),
    active: z.boolean(),
    aiQuota: z.number().int().nullable(),
    createdAt: z.string(),
  })
  .openapi("User");
export const UserPage = pageSchema(UserSchema, "UserPage");
export const UserListQuery = PageQuery.extend({
  search: z.string().optional(),
  sort: z.string().optional().openapi({ example: "email,asc" }),
});
const GlobalRoles = z.array(z.enum(["SUPER_ADMIN"]));
export const CreateUserBody = z
  .object({
    email: z.email(),
    password: z.string().min(1),
    firstName: z.string().min(1),
    lastName: z.string().nullable().optional(),
    roles: GlobalRoles.optional(),
  })
  .openapi("CreateUserRequest");
export const UpdateUserBody = z
  .object({
    email: z.email().optional(),
    firstName: z.string().min(1).optional(),
    lastName: z.string().nullable().optional(),
    roles: GlobalRoles.optional(),
    active: z.boolean().optional(),
  })
  .openapi("UpdateUserRequest");
export const PasswordBody = z.object({ password: z.string().min(1) }).openapi("SetPasswordRequest");
export const AiQuotaBody = z.object({ quota: z.number().int().min(0).nullable() }).openapi("AiQuotaRequest");
