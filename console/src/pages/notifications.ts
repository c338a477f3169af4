import { useState } from "preact/hooks";
import { api } from "../api";
import { Alert } from "../controls";
import { when } from "../format";
import { html } from "../html";
import { t } from "../i18n";
import { NOTIFICATIONS_CHANGED } from "../notification-bell";
import { Pending, useAction, useLoad } from "../use-load";

interface Notification {
  id: string;
  type: string;
  title: string;
  body: string;
  link: string | null;
  read: boolean;
  createdAt: string;
}
interface Page {
  content: Notification[];
  number: number;
  totalPages: number;
  totalElements: number;
}

const SIZE = 20;
/**
 * The console page a notification's link names (`/tasks/{id}`, `/webhooks/{id}`, `/instances/{id}`,
 * `/ai-task-failures?businessKey=`), or none.
 */
function consoleLink(link: string | null): string | null {
  if (link?.startsWith("/ai-task-failures")) return `#${link}`;
  const m = /^\/(tasks|instances|webhooks)\/([^/?#]+)$/.exec(link ?? "");
  if (!m) return null;
  return m[1] === "webhooks" ? `#/settings/webhooks/${m[2]}` : `#/${m[1]}/${m[2]}`;
}

/** The caller's notifications in this company (GET /a/notifications), newest first: open, mark read, mark all read. */
export function NotificationsPage() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [page, setPage] = useState(0);
  const list = useLoad(
    () => api<Page>("GET", `/a/notifications?page=${page}&size=${SIZE}${unreadOnly ? "&unread=true" : ""}`),
    [page, unreadOnly],
  );
  const { error, run } = useAction();
  const changed = () => {
    list.reload();
    dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
  };
  const markRead = (n: Notification) => run(() => api("PUT", `/a/notifications/${n.id}/read`).then(changed));
  const markAll = () => run(() => api("PUT", "/a/notifications/read-all").then(changed));
  const open = (n: Notification, href: string) => {
    if (!n.read)
      void api("PUT", `/a/notifications/${n.id}/read`).then(() => dispatchEvent(new Event(NOTIFICATIONS_CHANGED)));
    location.hash = href;
  };
  const rows = list.data?.content ?? [];
  return html`<section>
    <h1>${t("Notifications")}</h1>
    <div class="filters">
      <label class="choice"><input type="checkbox" checked=${unreadOnly} onChange=${(e: Event) => {
        setUnreadOnly((e.currentTarget as HTMLInputElement).checked);
        setPage(0);
      }} /> ${t("Unread only")}</label>
      <button type="button" onClick=${markAll} disabled=${!rows.some((n) => !n.read)}>${t("Mark all as read")}</button>
    </div>
    <${Alert} error=${error} />
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${unreadOnly ? t("Nothing unread.") : t("No notifications yet. You are told here when a task is assigned or delegated to you, or an AI step of yours fails.")}</p>`
        : null
    }
    <ul class="plain notifications">${rows.map((n) => {
      const href = consoleLink(n.link);
      return html`<li class=${n.read ? "read" : "unread"} data-id=${n.id}>
        <strong>${
          href
            ? html`<a href=${href} onClick=${(e: Event) => {
                e.preventDefault();
                open(n, href);
              }}>${n.title}</a>`
            : n.title
        }</strong>
        ${n.read ? null : html` <span class="status PENDING">${t("unread")}</span>`}
        <p>${n.body}</p><small>${when(n.createdAt)}</small>
        ${n.read ? null : html` <button type="button" aria-label=${t("Mark “{title}” as read", { title: n.title })} onClick=${() => markRead(n)}>${t("Mark as read")}</button>`}
      </li>`;
    })}</ul>
    ${
      list.data && list.data.totalPages > 1
        ? html`<div class="row-actions"><button type="button" disabled=${page === 0} onClick=${() => setPage(page - 1)}>${t("Newer")}</button>
          <span>${t("page {page} of {pages}", { page: page + 1, pages: list.data.totalPages })}</span>
          <button type="button" disabled=${page + 1 >= list.data.totalPages} onClick=${() => setPage(page + 1)}>${t("Older")}</button></div>`
        : null
    }
  </section>`;
}
