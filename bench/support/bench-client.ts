// The requests of the HTTP benchmarks that drive several routes (noisy-neighbour, soak): a bearer token, a JSON or
// multipart body, and an optional client address (X-Forwarded-For, for a server behind TRUST_PROXY).

// biome-ignore lint/suspicious/noExplicitAny: answers of many routes, read where they are used
export type Json = any;

export function benchClient(base: string) {
  /** One request; `token` may be empty (login), `ip` names the client's address. */
  const call = (token: string, method: string, path: string, body?: unknown, ip?: string): Promise<Response> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (ip) headers["x-forwarded-for"] = ip;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    return fetch(base + path, { method, headers, body: payload });
  };
  /** The same, for a step that must succeed: its JSON answer, or an error naming the route and the answer. */
  const ok = async (token: string, method: string, path: string, body?: unknown, ip?: string): Promise<Json> => {
    const r = await call(token, method, path, body, ip);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${(await r.text()).slice(0, 300)}`);
    return r.status === 204 ? null : r.json();
  };
  return { call, ok };
}

/** A multipart body of one file (`file`), with `fields` beside it. */
export function fileForm(name: string, text: string, fields: Record<string, string> = {}, type?: string): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append("file", new File([text], name, type ? { type } : {}));
  return fd;
}

/** A tenant of its own with an administrator, signed in with it selected (the SA is the platform server's). */
export async function benchTenant(
  base: string,
  slug: string,
  opts: { sa?: string; password: string; ip?: string },
): Promise<{ id: string; token: string; refreshToken: string; email: string }> {
  const { call, ok } = benchClient(base);
  const sa =
    opts.sa ??
    (await ok("", "POST", "/api/auth/login", { email: "sa@bench", password: "bench-password" }, opts.ip)).accessToken;
  const tenant = await ok(sa, "POST", "/api/admin/tenants", { slug, name: `Firm ${slug}` }, opts.ip);
  const email = `admin@${slug}.test`;
  const user = await ok(sa, "POST", "/api/admin/users", { email, password: opts.password, firstName: slug }, opts.ip);
  await ok(sa, "POST", `/api/admin/tenants/${tenant.id}/members`, { userId: user.id, role: "ADMIN" }, opts.ip);
  const login = await ok("", "POST", "/api/auth/login", { email, password: opts.password }, opts.ip);
  // A new tenant is selectable once its database is provisioned (in the background).
  for (let i = 0; i < 200; i++) {
    const r = await call(login.accessToken, "POST", "/api/auth/select-tenant", { tenantSlug: slug }, opts.ip);
    if (r.status === 200) {
      const { accessToken, refreshToken } = (await r.json()) as Json;
      return { id: tenant.id, token: accessToken, refreshToken, email };
    }
    await Bun.sleep(50);
  }
  throw new Error(`tenant ${slug} never became selectable`);
}
