import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { useAction, useLoad } from "../../use-load";

export interface MailInbox {
  id: string;
  name: string;
  host: string;
  port: number;
  tlsMode: "TLS" | "STARTTLS" | "NONE";
  username: string;
  authMethod: "PASSWORD" | "OAUTH2";
  passwordVariable: string | null;
  oauth: {
    provider: string | null;
    grant: string | null;
    clientId: string | null;
    tokenUrl: string | null;
    scope: string | null;
    accessTokenExpiresAt: string | null;
  } | null;
  folder: string;
  pollIntervalSeconds: number;
  afterRead: "FLAG" | "MOVE";
  moveToFolder: string | null;
  enabled: boolean;
  status: "ACTIVE" | "ERROR";
  lastError: string | null;
  lastPollAt: string | null;
}

type Fields = Record<string, string>;

const initialFields = (i?: MailInbox): Fields => ({
  name: i?.name ?? "",
  username: i?.username ?? "",
  authMethod: i?.authMethod ?? "PASSWORD",
  host: i?.host ?? "",
  port: i ? String(i.port) : "993",
  tlsMode: i?.tlsMode ?? "TLS",
  passwordVariable: i?.passwordVariable ?? "",
  provider: i?.oauth?.provider ?? "MICROSOFT_365",
  grant: i?.oauth?.grant ?? "REFRESH_TOKEN",
  clientId: i?.oauth?.clientId ?? "",
  clientSecret: "",
  refreshToken: "",
  tenantId: "",
  tokenUrl: i?.oauth?.tokenUrl ?? "",
  scope: i?.oauth?.scope ?? "",
  folder: i?.folder ?? "INBOX",
  pollIntervalSeconds: String(i?.pollIntervalSeconds ?? 60),
  afterRead: i?.afterRead ?? "FLAG",
  moveToFolder: i?.moveToFolder ?? "",
});

/**
 * The request body: on a change (PATCH) only what differs from the stored inbox, and a secret (client secret, refresh
 * token) only when typed, so leaving it empty keeps the stored one. An OAuth2 provider's preset fills an empty server.
 */
function bodyOf(f: Fields, initial?: MailInbox): Record<string, unknown> {
  const oauth = f.authMethod === "OAUTH2";
  const all: Record<string, unknown> = {
    name: f.name.trim(),
    username: f.username.trim(),
    authMethod: f.authMethod,
    folder: f.folder.trim(),
    pollIntervalSeconds: Number(f.pollIntervalSeconds),
    afterRead: f.afterRead,
    moveToFolder: f.afterRead === "MOVE" ? f.moveToFolder.trim() || null : null,
  };
  if (f.host.trim() || !oauth) Object.assign(all, { host: f.host.trim(), port: Number(f.port), tlsMode: f.tlsMode });
  if (!oauth) all.passwordVariable = f.passwordVariable;
  const before = initialFields(initial);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(all)) {
    const was =
      k === "port" || k === "pollIntervalSeconds"
        ? Number(before[k])
        : k === "moveToFolder"
          ? before[k] || null
          : before[k];
    if (!initial || v !== was) out[k] = v;
  }
  if (oauth) {
    const o: Record<string, string> = {};
    for (const k of ["provider", "grant", "clientId", "clientSecret", "refreshToken", "tenantId", "tokenUrl", "scope"])
      if (f[k].trim() && (!initial || f[k] !== before[k])) o[k] = f[k].trim();
    if (Object.keys(o).length) out.oauth = o;
  }
  return out;
}

/** Creating (POST) or changing (PATCH) an inbox: the server tests the credentials first and answers why it could not log in. */
export function MailInboxForm({ initial, onSaved }: { initial?: MailInbox; onSaved(i: MailInbox): void }) {
  const [f, setF] = useState<Fields>(initialFields(initial));
  const secrets = useLoad(() => api<{ name: string; secret: boolean }[]>("GET", "/a/variables"));
  const { error, run } = useAction();
  const id = initial ? "e" : "m";
  const set = (k: string) => (e: Event) => setF({ ...f, [k]: valueOf(e) });
  const input = (k: string, label: string, extra: Record<string, unknown> = {}) =>
    html`<div class="field"><label for=${`${id}-${k}`}>${label}</label>
      <input id=${`${id}-${k}`} value=${f[k]} onInput=${set(k)} ...${extra} /></div>`;
  const select = (k: string, label: string, options: [string, string][]) =>
    html`<div class="field"><label for=${`${id}-${k}`}>${label}</label>
      <select id=${`${id}-${k}`} value=${f[k]} onChange=${set(k)}>${options.map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select></div>`;
  const save = (e: Event) => {
    e.preventDefault();
    return run(async () =>
      onSaved(
        await api<MailInbox>(
          initial ? "PATCH" : "POST",
          initial ? `/a/mail-inboxes/${initial.id}` : "/a/mail-inboxes",
          bodyOf(f, initial),
        ),
      ),
    );
  };
  const oauth = f.authMethod === "OAUTH2";
  const secretVars = (secrets.data ?? []).filter((v) => v.secret).map((v): [string, string] => [v.name, v.name]);
  return html`<form class="inline" onSubmit=${save} aria-label=${initial ? t("Change {name}", { name: initial.name }) : t("New inbox")}>
    <${Alert} error=${error} />
    <div class="row-fields">
      ${input("name", t("Name"), { required: true, maxlength: 200 })}
      ${input("username", t("Account (user name)"), { required: true, maxlength: 320 })}
      ${select("authMethod", t("Sign-in"), [
        ["PASSWORD", t("Password")],
        ["OAUTH2", t("OAuth2 (Microsoft 365, Google…)")],
      ])}
    </div>
    ${
      oauth
        ? html`<fieldset><legend>OAuth2</legend><div class="row-fields">
          ${select("provider", t("Provider"), [
            ["MICROSOFT_365", "Microsoft 365"],
            ["GOOGLE", "Google"],
            ["CUSTOM", t("Other")],
          ])}
          ${select("grant", t("Grant"), [
            ["REFRESH_TOKEN", t("Refresh token (a person's consent)")],
            ["CLIENT_CREDENTIALS", t("Client credentials (the app's own)")],
          ])}
          ${input("clientId", t("Client id"), { required: !initial })}
          ${input("clientSecret", initial ? t("Client secret (empty: keep)") : t("Client secret"), { type: "password", autocomplete: "off", required: !initial })}
          ${f.grant === "REFRESH_TOKEN" ? input("refreshToken", initial ? t("Refresh token (empty: keep)") : t("Refresh token"), { type: "password", autocomplete: "off" }) : null}
          ${f.provider === "MICROSOFT_365" ? input("tenantId", t("Directory (tenant) id")) : null}
          ${input("tokenUrl", f.provider === "CUSTOM" ? t("Token URL") : t("Token URL (empty: the provider's)"), { type: "url" })}
          ${input("scope", t("Scope (empty: the provider's)"))}
        </div><p class="hint">${t("Secrets are stored sealed and never shown again.")}</p></fieldset>`
        : null
    }
    <div class="row-fields">
      ${input("host", oauth ? t("IMAP server (empty: the provider's)") : t("IMAP server"), { required: !oauth })}
      ${input("port", t("Port"), { type: "number", min: 1, max: 65535 })}
      ${select("tlsMode", t("Security"), [
        ["TLS", "TLS"],
        ["STARTTLS", "STARTTLS"],
        ["NONE", t("none")],
      ])}
      ${oauth ? null : select("passwordVariable", t("Password (a secret variable)"), [["", t("choose…")], ...secretVars])}
    </div>
    ${!oauth && secrets.data && !secretVars.length ? html`<p class="hint">${t("First add the password as a secret under Variables.")}</p>` : null}
    <div class="row-fields">
      ${input("folder", t("Folder"), { required: true })}
      ${input("pollIntervalSeconds", t("Read every (seconds)"), { type: "number", min: 10, max: 86400, required: true })}
      ${select("afterRead", t("After reading"), [
        ["FLAG", t("mark as read")],
        ["MOVE", t("move to a folder")],
      ])}
      ${f.afterRead === "MOVE" ? input("moveToFolder", t("Move to folder"), { required: true }) : null}
    </div>
    <button type="submit" class="primary">${initial ? t("Save {name}", { name: initial.name }) : t("Create inbox")}</button>
  </form>`;
}
