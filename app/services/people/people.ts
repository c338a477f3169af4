import { and, eq, inArray, isNotNull, or } from "drizzle-orm";
import { z } from "zod";
import { memberships, users } from "../../../db/platform/schema/identity";
import type { PlatformOrm } from "../../../tenants/tenant-directory";

/**
 * Who a user id is, for answers that name people: the display name (first and last name, else the e-mail) and the
 * e-mail. Answers carry it beside the id (`assigneeUser`, `startedByUser`, a comment's `user`, …), so a client shows
 * names, not ids.
 */
export const PersonSchema = z.object({
  id: z.string(),
  name: z.string().describe("display name: first and last name, else the e-mail"),
  email: z.string(),
});
export type Person = z.infer<typeof PersonSchema>;

/**
 * The people among `ids` (nulls and unknown ids skipped), read in one query per 500. Only members of `tenantId` (and
 * super admins, who act in every tenant) are named: an id of another tenant's user (a modeler can write any id into
 * `camunda:assignee`) stays a bare id, so no answer tells one tenant another's names or e-mails.
 */
export function peopleByIds(
  platformDb: PlatformOrm,
  tenantId: string,
  ids: Iterable<string | null | undefined>,
): Map<string, Person> {
  const wanted = [...new Set([...ids].filter((x): x is string => !!x))];
  const out = new Map<string, Person>();
  if (!wanted.length) return out;
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = platformDb
      .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.tenantId, tenantId)))
      .where(
        and(
          inArray(users.id, wanted.slice(i, i + 500)),
          or(isNotNull(memberships.id), eq(users.globalRole, "SUPER_ADMIN")),
        ),
      )
      .all();
    for (const r of rows) {
      const name = [r.firstName, r.lastName].filter((p) => p?.trim()).join(" ") || r.email;
      out.set(r.id, { id: r.id, name, email: r.email });
    }
  }
  return out;
}

/** `list` with `<field>User` set beside each named id field (null when the id is null, unknown or not the tenant's). */
export function withPeople<T extends Record<string, unknown>, K extends keyof T & string>(
  platformDb: PlatformOrm,
  tenantId: string,
  list: T[],
  fields: K[],
): (T & Record<`${K}User`, Person | null>)[] {
  const people = peopleByIds(
    platformDb,
    tenantId,
    list.flatMap((row) => fields.map((f) => row[f] as string | null)),
  );
  return list.map((row) => {
    const extra: Record<string, Person | null> = {};
    for (const f of fields) extra[`${f}User`] = people.get(row[f] as string) ?? null;
    return { ...row, ...extra } as T & Record<`${K}User`, Person | null>;
  });
}
