import { and, asc, count, desc, eq, like, or, type SQL } from "drizzle-orm";
import { users } from "../../../db/platform/schema";
import type { PlatformCtx } from "../context";
import { BadRequestError, ConflictError, NotFoundError } from "../errors";
import { checkPasswordPolicy, hashPassword } from "../auth/passwords";
import { pageOf, pageParams } from "../../../db/pagination";
import { immediate } from "../../../db/connection";
import { sessions } from "../../../db/platform/schema";

type UserRow = typeof users.$inferSelect;

/** User administration reads and writes the platform tables only. */
export type AdminUsersCtx = PlatformCtx<"platformDb" | "revocations">;

/** The public view of a user: never the password hash. */
export function userView(u: UserRow) {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    roles: u.globalRole ? [u.globalRole] : [],
    active: u.active,
    aiQuota: u.aiQuota,
    createdAt: u.createdAt,
  };
}

const SORTABLE = {
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  createdAt: users.createdAt,
} as const;

/** GET /admin/users: search in e-mail and names, sort=field,asc|desc. */
export function listUsers({
  ctx,
  input: q,
}: {
  ctx: AdminUsersCtx;
  input: { search?: string; page?: number; size?: number; sort?: string };
}) {
  const { page, size, offset } = pageParams(q.page, q.size, 20, 100);
  let order = asc(users.email);
  if (q.sort) {
    const [field, dir = "asc"] = q.sort.split(",").map((s) => s.trim());
    const column = SORTABLE[field as keyof typeof SORTABLE];
    if (!column || !["asc", "desc"].includes(dir.toLowerCase())) {
      throw new BadRequestError(
        `Invalid sort '${q.sort}': use <field>,asc|desc with field one of ${Object.keys(SORTABLE).join(", ")}`,
        [{ field: "sort", message: "invalid sort" }],
      );
    }
    order = dir.toLowerCase() === "desc" ? desc(column) : asc(column);
  }
  let where: SQL | undefined;
  if (q.search?.trim()) {
    const term = `%${q.search.trim().toLowerCase()}%`;
    where = or(like(users.email, term), like(users.firstName, term), like(users.lastName, term));
  }
  const rows = ctx.platformDb.select().from(users).where(where).orderBy(order).limit(size).offset(offset).all();
  const total = ctx.platformDb.select({ n: count() }).from(users).where(where).get()?.n ?? 0;
  return pageOf(rows.map(userView), total, page, size);
}

/** The user row (with its hash: internal callers only), or 404. */
export function findUser(ctx: AdminUsersCtx, id: string): UserRow {
  const u = ctx.platformDb.select().from(users).where(eq(users.id, id)).get();
  if (!u) throw new NotFoundError(`User ${id} not found`);
  return u;
}

function emailTaken(ctx: AdminUsersCtx, email: string, exceptId?: string): boolean {
  const u = ctx.platformDb.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  return !!u && u.id !== exceptId;
}

export interface CreateUserInput {
  email: string;
  password: string;
  firstName: string;
  lastName?: string | null;
  roles?: string[];
}

/** POST /admin/users: 409 when the e-mail is registered; the only global role is SUPER_ADMIN. */
export async function createUser({ ctx, input }: { ctx: AdminUsersCtx; input: CreateUserInput }) {
  const email = input.email.trim().toLowerCase();
  checkPasswordPolicy(input.password);
  if (emailTaken(ctx, email)) throw new ConflictError(`E-mail ${email} is already registered`);
  const now = new Date(ctx.clock.now()).toISOString();
  const row: UserRow = {
    id: crypto.randomUUID(),
    email,
    passwordHash: await hashPassword(input.password),
    firstName: input.firstName,
    lastName: input.lastName ?? null,
    globalRole: input.roles?.includes("SUPER_ADMIN") ? "SUPER_ADMIN" : null,
    active: true,
    aiQuota: null,
    createdAt: now,
    updatedAt: now,
  };
  ctx.platformDb.insert(users).values(row).run();
  return userView(row);
}

export interface UpdateUserInput {
  email?: string;
  firstName?: string;
  lastName?: string | null;
  roles?: string[];
  active?: boolean;
}

/** PUT /admin/users/{id}: fields absent stay as they are. */
/** GET /admin/users/{id} */
export function getUser({ ctx, input }: { ctx: AdminUsersCtx; input: { id: string } }) {
  return userView(findUser(ctx, input.id));
}

export function updateUser({
  ctx,
  input: { id, ...input },
}: {
  ctx: AdminUsersCtx;
  input: UpdateUserInput & { id: string };
}) {
  const current = findUser(ctx, id);
  const email = input.email?.trim().toLowerCase();
  if (email && emailTaken(ctx, email, id)) throw new ConflictError(`E-mail ${email} is already registered`);
  const changes: Partial<UserRow> = { updatedAt: new Date(ctx.clock.now()).toISOString() };
  if (email) changes.email = email;
  if (input.firstName !== undefined) changes.firstName = input.firstName;
  if (input.lastName !== undefined) changes.lastName = input.lastName;
  if (input.roles !== undefined) changes.globalRole = input.roles.includes("SUPER_ADMIN") ? "SUPER_ADMIN" : null;
  if (input.active !== undefined) changes.active = input.active;
  ctx.platformDb.update(users).set(changes).where(eq(users.id, id)).run();
  ctx.revocations.userChanged(id);
  return userView({ ...current, ...changes });
}

/** DELETE /admin/users/{id}: deactivates (the row stays for history) and ends the user's sessions. */
export function deactivateUser({ ctx, input: { id } }: { ctx: AdminUsersCtx; input: { id: string } }) {
  findUser(ctx, id);
  immediate(ctx.platformDb.$client, () => {
    ctx.platformDb
      .update(users)
      .set({ active: false, updatedAt: new Date(ctx.clock.now()).toISOString() })
      .where(eq(users.id, id))
      .run();
    ctx.platformDb.delete(sessions).where(eq(sessions.userId, id)).run();
  });
  ctx.revocations.userChanged(id);
}

/** PUT /admin/users/{id}/password */
export async function setUserPassword({
  ctx,
  input: { id, password },
}: {
  ctx: AdminUsersCtx;
  input: { id: string; password: string };
}) {
  findUser(ctx, id);
  checkPasswordPolicy(password);
  const passwordHash = await hashPassword(password);
  ctx.platformDb
    .update(users)
    .set({ passwordHash, updatedAt: new Date(ctx.clock.now()).toISOString() })
    .where(eq(users.id, id))
    .run();
}

/** PUT /admin/users/{id}/ai-quota: null removes the ceiling. */
export function setAiQuota({
  ctx,
  input: { id, quota },
}: {
  ctx: AdminUsersCtx;
  input: { id: string; quota: number | null };
}) {
  findUser(ctx, id);
  ctx.platformDb
    .update(users)
    .set({ aiQuota: quota })
    .where(and(eq(users.id, id)))
    .run();
  return userView(findUser(ctx, id));
}
