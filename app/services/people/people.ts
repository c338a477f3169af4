import { inArray } from "drizzle-orm";
import { z } from "zod";
import { users } from "../../../db/platform/schema/identity";
import type { PlatformOrm } from "../../../tenants/tenant-directory";

/**
 * Who a user id is, for answers that name people: the display name (first and last name, else the e-mail) and the
 * e-mail. Answers carry it beside the id (`assigneeUser`, `startedByUser`), so a client shows names, not ids.
 */
export const PersonSchema = z.object({
  id: z.string(),
  name: z.string().describe("display name: first and last name, else the e-mail"),
  email: z.string(),
});
export type Person = z.infer<typeof PersonSchema>;

/** The people among `ids` (nulls and unknown ids skipped), read in one query. */
export function peopleByIds(platformDb: PlatformOrm, ids: Iterable<string | null | undefined>): Map<string, Person> {
  const wanted = [...new Set([...ids].filter((x): x is string => !!x))];
  const out = new Map<string, Person>();
  if (!wanted.length) return out;
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = platformDb
      .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(inArray(users.id, wanted.slice(i, i + 500)))
      .all();
    for (const r of rows) {
      const name = [r.firstName, r.lastName].filter((p) => p?.trim()).join(" ") || r.email;
      out.set(r.id, { id: r.id, name, email: r.email });
    }
  }
  return out;
}

/** `list` with `<field>User` set beside each named id field (null when the id is null or unknown). */
export function withPeople<T extends Record<string, unknown>, K extends keyof T & string>(
  platformDb: PlatformOrm,
  list: T[],
  fields: K[],
): (T & Record<`${K}User`, Person | null>)[] {
  const people = peopleByIds(
    platformDb,
    list.flatMap((row) => fields.map((f) => row[f] as string | null)),
  );
  return list.map((row) => {
    const extra: Record<string, Person | null> = {};
    for (const f of fields) extra[`${f}User`] = people.get(row[f] as string) ?? null;
    return { ...row, ...extra } as T & Record<`${K}User`, Person | null>;
  });
}
