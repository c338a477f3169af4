import { z } from "@hono/zod-openapi";
import { IdParam } from "../../schemas";

const KEY = /^[A-Za-z0-9_.:-]{1,200}$/;
const keyMessage = "must be 1-200 letters, digits or _ . : -";

export const RoleMemberSchema = z
  .object({ userId: z.string(), email: z.string(), firstName: z.string(), lastName: z.string().nullable() })
  .openapi("ProcessRoleMember");
export const ProcessRoleSchema = z
  .object({
    id: z.string(),
    processKey: z.string().nullable().openapi({ description: "null for a tenant-wide role" }),
    key: z.string().openapi({ description: "named by candidateGroups of user tasks" }),
    name: z.string(),
    createdAt: z.string(),
    members: z.array(RoleMemberSchema),
  })
  .openapi("ProcessRole");
export const CreateRoleBody = z
  .object({
    processKey: z.string().regex(KEY, keyMessage).nullable().optional(),
    key: z.string().regex(KEY, keyMessage),
    name: z.string().min(1).max(200),
  })
  .openapi("CreateProcessRoleRequest");
export const RenameRoleBody = z.object({ name: z.string().min(1).max(200) }).openapi("RenameProcessRoleRequest");
export const AddMemberBody = z.object({ userId: z.string().min(1) }).openapi("AddProcessRoleMemberRequest");
export const ListQuery = z.object({ processKey: z.string().optional() });
export const MemberParams = IdParam.extend({ userId: z.string().openapi({ param: { name: "userId", in: "path" } }) });
