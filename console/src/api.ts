/** The console's only way to the server: the public REST API under /api, with the session kept in localStorage. */

export interface Session {
  accessToken: string;
  refreshToken: string;
  user: { id: string; email: string; firstName?: string | null };
  roles: string[];
  tenants: { id: string; slug: string; name: string }[];
  /** The slug chosen with select-tenant; absent until the person picks one. */
  tenant?: string;
}

export interface FieldError {
  field: string;
  message: string;
}

/** A refusal of the API, carrying the spec's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
  }
}

const KEY = "pms.session";
const listeners = new Set<() => void>();

export function session(): Session | null {
  const raw = localStorage.getItem(KEY);
  return raw ? (JSON.parse(raw) as Session) : null;
}

export function setSession(s: Session | null): void {
  if (s) localStorage.setItem(KEY, JSON.stringify(s));
  else localStorage.removeItem(KEY);
  for (const f of listeners) f();
}

export function onSessionChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Several requests may meet an expired token at once: they share one refresh. */
let refreshing: Promise<boolean> | null = null;

async function refresh(): Promise<boolean> {
  const s = session();
  if (!s) return false;
  const res = await fetch("/api/auth/refresh", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ refreshToken: s.refreshToken }),
  });
  if (!res.ok) return false;
  const pair = (await res.json()) as { accessToken: string; refreshToken: string };
  setSession({ ...s, accessToken: pair.accessToken, refreshToken: pair.refreshToken });
  return true;
}

async function send(method: string, path: string, body: unknown): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = session()?.accessToken;
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  return fetch(`/api${path}`, { method, headers, body: payload });
}

/**
 * Sends a call to the API and answers the response once it is a success (what a route answering something other than
 * JSON, a diagram's XML or a file, is read from). A 401 with a session in hand refreshes the token once (POST
 * /auth/refresh) and repeats the call; when the refresh is refused too, the session ends and the login page shows. A
 * refusal throws the ApiError of its body.
 */
export async function apiResponse(method: string, path: string, body?: unknown): Promise<Response> {
  let res = await send(method, path, body);
  if (res.status === 401 && session() && !path.startsWith("/auth/login")) {
    refreshing ??= refresh().finally(() => {
      refreshing = null;
    });
    if (await refreshing) res = await send(method, path, body);
    else setSession(null);
  }
  if (res.ok) return res;
  const text = await res.text();
  let data: { message?: string; fieldErrors?: FieldError[] } | undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  throw new ApiError(res.status, data?.message ?? res.statusText, data?.fieldErrors ?? []);
}

/** Calls the API and reads its JSON answer (undefined for 204). */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await apiResponse(method, path, body);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Reads a route that answers text rather than JSON (a definition version's XML). */
export async function apiText(path: string): Promise<string> {
  return (await apiResponse("GET", path)).text();
}

/** Ends the session on the server (best effort) and locally. */
export async function logout(): Promise<void> {
  try {
    await api("POST", "/auth/logout");
  } finally {
    setSession(null);
  }
}

export const hasRole = (...roles: string[]) => {
  const s = session();
  return !!s && s.roles.some((r) => roles.includes(r) || r === "SUPER_ADMIN");
};
