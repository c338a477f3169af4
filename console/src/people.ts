import { session } from "./api";
import { html } from "./html";
import { t } from "./i18n";

/** A user as the API names one beside an id (`assigneeUser`, `startedByUser`, …): display name and e-mail. */
export interface Person {
  id: string;
  name: string;
  email: string;
}

/**
 * A person shown by name, the e-mail on hover: "me" for the signed-in user, `none` (English, translated here) for no one, and the bare id only
 * when the answer did not name them (a user since removed from the platform).
 */
export function Who({ id, person, none }: { id: string | null; person?: Person | null; none?: string }) {
  if (id === null) return html`<span>${none === undefined ? t("unassigned") : t(none)}</span>`;
  if (id === session()?.user.id) return html`<span title=${person?.email ?? ""}>${t("me")}</span>`;
  if (person) return html`<span class="person" title=${person.email}>${person.name}</span>`;
  return html`<span>${id}</span>`;
}
