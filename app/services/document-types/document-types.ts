import { and, eq, isNull, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { globalDocumentTypes } from "../../../db/platform/schema/global-document-types";
import { documentTypes } from "../../../db/tenant/schema/document-types";
import { isManager, isModeler, type TenantCtx } from "../context";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, type FieldError } from "../errors";

export type DocumentTypesCtx = TenantCtx<"db" | "platformDb">;

export interface DocumentTypeOut {
  id: string;
  name: string;
  description: string | null;
  status: "ACTIVE" | "INACTIVE";
  isGlobal: boolean;
  processKey: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface DocumentTypeInput {
  name?: unknown;
  description?: unknown;
  status?: unknown;
  processKey?: unknown;
}

type Row = typeof documentTypes.$inferSelect;
const out = (r: Row, isGlobal: boolean): DocumentTypeOut => ({
  id: r.id,
  name: r.name,
  description: r.description,
  status: r.status,
  isGlobal,
  processKey: r.processKey,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
const tenantOrm = (ctx: DocumentTypesCtx) => drizzle(ctx.db.sqlite);
const now = (ctx: DocumentTypesCtx) => new Date(ctx.clock.now()).toISOString();

function assertGlobalWriter(ctx: DocumentTypesCtx): void {
  if (!ctx.actor.isSuperAdmin) throw new ForbiddenError("Only a SUPER_ADMIN writes global document types");
}
function assertModeler(ctx: DocumentTypesCtx): void {
  if (!isModeler(ctx.actor)) throw new ForbiddenError("This operation requires the MODELER or ADMIN role");
}

function checkInput(input: DocumentTypeInput, creating: boolean) {
  const errors: FieldError[] = [];
  const str = (v: unknown, field: string, max: number, required: boolean) => {
    if (v === undefined || v === null) {
      if (required) errors.push({ field, message: "is required" });
      return undefined;
    }
    if (typeof v !== "string" || (required && !v.trim()) || v.length > max)
      errors.push({ field, message: `must be a string of at most ${max} characters` });
    return typeof v === "string" ? v.trim() : undefined;
  };
  const name = str(input.name, "name", 200, creating);
  const description = str(input.description, "description", 2000, false);
  const processKey = str(input.processKey, "processKey", 200, false);
  if (input.status !== undefined && input.status !== "ACTIVE" && input.status !== "INACTIVE") {
    errors.push({ field: "status", message: "must be ACTIVE or INACTIVE" });
  }
  if (errors.length) throw new BadRequestError("Invalid document type", errors);
  return { name, description, processKey, status: input.status as "ACTIVE" | "INACTIVE" | undefined };
}

/** GET /a/document-types: Manager or Modeler; with isGlobal=true (optionally processKey) open to any member. */
export function listDocumentTypes({
  ctx,
  input: q,
}: {
  ctx: DocumentTypesCtx;
  input: { isGlobal?: string; processKey?: string };
}): DocumentTypeOut[] {
  const globalOnly = q.isGlobal === "true";
  if (!globalOnly && !(isManager(ctx.actor) || isModeler(ctx.actor))) {
    throw new ForbiddenError(
      "Listing document types requires the MANAGER, MODELER or ADMIN role (isGlobal=true is open to members)",
    );
  }
  const byProcess = (col: typeof documentTypes.processKey | typeof globalDocumentTypes.processKey): SQL | undefined =>
    q.processKey ? eq(col, q.processKey) : undefined;
  const globals = ctx.platformDb
    .select()
    .from(globalDocumentTypes)
    .where(byProcess(globalDocumentTypes.processKey))
    .all()
    .map((r) => out(r, true));
  if (globalOnly) return globals;
  const own = tenantOrm(ctx)
    .select()
    .from(documentTypes)
    .where(byProcess(documentTypes.processKey))
    .all()
    .map((r) => out(r, false));
  return q.isGlobal === "false" ? own : [...own, ...globals];
}

function assertNameFree(
  ctx: DocumentTypesCtx,
  isGlobal: boolean,
  name: string,
  processKey: string | null,
  exceptId: string,
): void {
  const table = isGlobal ? globalDocumentTypes : documentTypes;
  const cond = and(
    eq(table.name, name),
    processKey === null ? isNull(table.processKey) : eq(table.processKey, processKey),
  );
  const hit = isGlobal
    ? ctx.platformDb.select({ id: globalDocumentTypes.id }).from(globalDocumentTypes).where(cond).get()
    : tenantOrm(ctx).select({ id: documentTypes.id }).from(documentTypes).where(cond).get();
  if (hit && hit.id !== exceptId) throw new ConflictError(`A document type named '${name}' already exists`);
}

/** POST /a/document-types: Modeler; `isGlobal` writes the platform-wide layer and needs SUPER_ADMIN. */
export function createDocumentType({
  ctx,
  input: { isGlobal, ...input },
}: {
  ctx: DocumentTypesCtx;
  input: { isGlobal: boolean } & DocumentTypeInput;
}): DocumentTypeOut {
  assertModeler(ctx);
  if (isGlobal) assertGlobalWriter(ctx);
  const v = checkInput(input, true);
  const processKey = v.processKey || null;
  assertNameFree(ctx, isGlobal, v.name!, processKey, "");
  const t = now(ctx);
  const row: Row = {
    id: crypto.randomUUID(),
    name: v.name!,
    description: v.description ?? null,
    status: v.status ?? "ACTIVE",
    processKey,
    createdAt: t,
    updatedAt: t,
  };
  if (isGlobal) ctx.platformDb.insert(globalDocumentTypes).values(row).run();
  else tenantOrm(ctx).insert(documentTypes).values(row).run();
  return out(row, isGlobal);
}

/** The type with this id in the tenant's layer or the global one, or null. */
export function findDocumentType(ctx: DocumentTypesCtx, id: string): DocumentTypeOut | null {
  const own = tenantOrm(ctx).select().from(documentTypes).where(eq(documentTypes.id, id)).get();
  if (own) return out(own, false);
  const g = ctx.platformDb.select().from(globalDocumentTypes).where(eq(globalDocumentTypes.id, id)).get();
  return g ? out(g, true) : null;
}

function writable(ctx: DocumentTypesCtx, id: string): DocumentTypeOut {
  assertModeler(ctx);
  const found = findDocumentType(ctx, id);
  if (!found) throw new NotFoundError(`Document type ${id} not found`);
  if (found.isGlobal) assertGlobalWriter(ctx);
  return found;
}

/** PUT /a/document-types/{id}: name, description, status (and processKey); a global type only by SUPER_ADMIN. */
export function updateDocumentType({
  ctx,
  input: { id, ...input },
}: {
  ctx: DocumentTypesCtx;
  input: { id: string } & DocumentTypeInput;
}): DocumentTypeOut {
  const cur = writable(ctx, id);
  const v = checkInput(input, false);
  const next = {
    name: v.name ?? cur.name,
    description: input.description === null ? null : (v.description ?? cur.description),
    status: v.status ?? cur.status,
    processKey: input.processKey === undefined ? cur.processKey : v.processKey || null,
    updatedAt: now(ctx),
  };
  assertNameFree(ctx, cur.isGlobal, next.name, next.processKey, id);
  if (cur.isGlobal) ctx.platformDb.update(globalDocumentTypes).set(next).where(eq(globalDocumentTypes.id, id)).run();
  else tenantOrm(ctx).update(documentTypes).set(next).where(eq(documentTypes.id, id)).run();
  return { ...cur, ...next };
}

/** DELETE /a/document-types/{id}: attachments keep the id they were filed under. */
export function deleteDocumentType({ ctx, input: { id } }: { ctx: DocumentTypesCtx; input: { id: string } }): void {
  const cur = writable(ctx, id);
  if (cur.isGlobal) ctx.platformDb.delete(globalDocumentTypes).where(eq(globalDocumentTypes.id, id)).run();
  else tenantOrm(ctx).delete(documentTypes).where(eq(documentTypes.id, id)).run();
}
