import { and, eq } from "drizzle-orm";
import { memberships, processRoleMembers, processRoles } from "../../../db/platform/schema";
import { immediate } from "../../../db/connection";
import type { TenantCtx } from "../context";
import { ConflictError, NotFoundError } from "../errors";
import { membersByRole, roleView, rolesWithMembers, type ProcessRoleRow } from "./store";

export type ProcessRolesCtx = TenantCtx<"platformDb">;

const nowIso = (ctx: ProcessRolesCtx) => new Date(ctx.clock.now()).toISOString();

/** A role of the caller's tenant; another tenant's id is simply not found. */
function getRole(ctx: ProcessRolesCtx, id: string): ProcessRoleRow {
  const row = ctx.platformDb
    .select()
    .from(processRoles)
    .where(and(eq(processRoles.id, id), eq(processRoles.tenantId, ctx.tenant.id)))
    .get();
  if (!row) throw new NotFoundError(`Process role ${id} not found`);
  return row;
}

function viewOf(ctx: ProcessRolesCtx, r: ProcessRoleRow) {
  return roleView(r, membersByRole(ctx.platformDb, ctx.tenant.id, [r.id]).get(r.id) ?? []);
}

/** GET /a/process-roles[?processKey=]: with a process key, that process's roles and the tenant-wide ones. */
export function listProcessRoles({
  ctx,
  input: { processKey },
}: {
  ctx: ProcessRolesCtx;
  input: { processKey?: string };
}) {
  return rolesWithMembers(ctx.platformDb, ctx.tenant.id, processKey);
}

export function getProcessRole({ ctx, input: { id } }: { ctx: ProcessRolesCtx; input: { id: string } }) {
  return viewOf(ctx, getRole(ctx, id));
}

/** POST /a/process-roles: the key is unique per tenant and scope (one process, or tenant-wide); 409 otherwise. */
export function createProcessRole({
  ctx,
  input,
}: {
  ctx: ProcessRolesCtx;
  input: { processKey?: string | null; key: string; name: string };
}) {
  const scope = input.processKey ?? "";
  const row: ProcessRoleRow = {
    id: crypto.randomUUID(),
    tenantId: ctx.tenant.id,
    processKey: scope,
    key: input.key,
    name: input.name,
    createdAt: nowIso(ctx),
  };
  immediate(ctx.platformDb.$client, () => {
    const taken = ctx.platformDb
      .select({ id: processRoles.id })
      .from(processRoles)
      .where(
        and(
          eq(processRoles.tenantId, ctx.tenant.id),
          eq(processRoles.processKey, scope),
          eq(processRoles.key, input.key),
        ),
      )
      .get();
    if (taken)
      throw new ConflictError(
        `Process role '${input.key}' already exists ${scope ? `in process '${scope}'` : "tenant-wide"}`,
      );
    ctx.platformDb.insert(processRoles).values(row).run();
  });
  return roleView(row, []);
}

export function renameProcessRole({
  ctx,
  input: { id, ...input },
}: {
  ctx: ProcessRolesCtx;
  input: { id: string; name: string };
}) {
  const row = getRole(ctx, id);
  ctx.platformDb.update(processRoles).set({ name: input.name }).where(eq(processRoles.id, id)).run();
  return viewOf(ctx, { ...row, name: input.name });
}

/** DELETE: the role and its assignments (cascade). */
export function deleteProcessRole({ ctx, input: { id } }: { ctx: ProcessRolesCtx; input: { id: string } }): void {
  getRole(ctx, id);
  ctx.platformDb.delete(processRoles).where(eq(processRoles.id, id)).run();
}

/** Assigns a user of this tenant to the role; a user outside the tenant is not found. Assigning twice is harmless. */
export function addRoleMember({
  ctx,
  input: { id, userId },
}: {
  ctx: ProcessRolesCtx;
  input: { id: string; userId: string };
}) {
  const role = getRole(ctx, id);
  const db = ctx.platformDb;
  const member = db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.tenantId, ctx.tenant.id), eq(memberships.userId, userId)))
    .get();
  if (!member) throw new NotFoundError(`User ${userId} is not a member of this tenant`);
  db.insert(processRoleMembers)
    .values({ id: crypto.randomUUID(), roleId: role.id, tenantId: ctx.tenant.id, userId, createdAt: nowIso(ctx) })
    .onConflictDoNothing()
    .run();
  return viewOf(ctx, role);
}

export function removeRoleMember({
  ctx,
  input: { id, userId },
}: {
  ctx: ProcessRolesCtx;
  input: { id: string; userId: string };
}): void {
  const role = getRole(ctx, id);
  const res = ctx.platformDb.$client
    .query(`DELETE FROM process_role_members WHERE role_id = ? AND user_id = ?`)
    .run(role.id, userId);
  if (res.changes === 0) throw new NotFoundError(`User ${userId} does not hold process role '${role.key}'`);
}
