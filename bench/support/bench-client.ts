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
