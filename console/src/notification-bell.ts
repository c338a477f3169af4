import { useEffect, useState } from "preact/hooks";
import { api } from "./api";
import { html } from "./html";
import { t } from "./i18n";

/** Re-read the count every half minute, and at once when a page marks notifications read (this event). */
const POLL_MS = 30_000;
export const NOTIFICATIONS_CHANGED = "pms:notifications-changed";

/**
 * The header's bell: the caller's unread notifications in the chosen company (GET /a/notifications?unread=true,
 * its total), linking to the list. A refused read (a session ending) simply leaves the count out.
 */
export function NotificationBell() {
  const [unread, setUnread] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    const read = () =>
      api<{ totalElements: number }>("GET", "/a/notifications?unread=true&size=1")
        .then((p) => live && setUnread(p.totalElements))
        .catch(() => live && setUnread(null));
    read();
    const t = setInterval(read, POLL_MS);
    addEventListener(NOTIFICATIONS_CHANGED, read);
    return () => {
      live = false;
      clearInterval(t);
      removeEventListener(NOTIFICATIONS_CHANGED, read);
    };
  }, []);
  const label = unread ? t("Notifications, {n} unread", { n: unread }) : t("Notifications");
  return html`<a href="#/notifications" class="bell" aria-label=${label} title=${label}>
    <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><path fill="currentColor"
      d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z" /></svg>${unread ? html`<span class="count" aria-hidden="true">${unread > 99 ? "99+" : unread}</span>` : null}</a>`;
}
