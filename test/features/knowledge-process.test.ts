import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { drainJobs, upload } from "../harness/knowledge";

let s: TestServer;
const tok: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "kbp-one", sa);
  const t2 = await createTenant(s, "kbp-two", sa);
  for (const role of ["ADMIN", "MODELER", "MANAGER", "USER"] as const)
    tok[role] = (await userInTenant(s, t, role, sa)).token;
  tok.OTHER = (await userInTenant(s, t2, "MODELER", sa)).token;
});
afterAll(() => s.close());

const json = async <T = Record<string, unknown>>(r: Response, status: number): Promise<T> => {
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
};
const createBase = (who: string, body: unknown) =>
  s.req("POST", "/api/a/knowledge-bases", { token: tok[who], json: body });

describe("process links and process knowledge", () => {
  test("link 201, list by process, delete refused naming the process, unlink, then delete", async () => {
    const b = (await json<{ id: string }>(await createBase("MODELER", { name: "Linked" }), 201)).id;
    await json(await s.req("POST", `/api/a/knowledge-bases/process/onboarding/link/${b}`, { token: tok.MODELER }), 201);
    await expectError(
      await s.req("POST", `/api/a/knowledge-bases/process/onboarding/link/${b}`, { token: tok.MODELER }),
      409,
    );
    const linked = await json<{ id: string }[]>(
      await s.req("GET", "/api/a/knowledge-bases/process/onboarding", { token: tok.MANAGER }),
      200,
    );
    expect(linked.map((x) => x.id)).toEqual([b]);
    await expectError(await s.req("DELETE", `/api/a/knowledge-bases/${b}`, { token: tok.MODELER }), 409, /onboarding/);
    expect(
      (await s.req("DELETE", `/api/a/knowledge-bases/process/onboarding/unlink/${b}`, { token: tok.MODELER })).status,
    ).toBe(204);
    await expectError(
      await s.req("DELETE", `/api/a/knowledge-bases/process/onboarding/unlink/${b}`, { token: tok.MODELER }),
      404,
    );
    expect((await s.req("DELETE", `/api/a/knowledge-bases/${b}`, { token: tok.MODELER })).status).toBe(204);
    await expectError(await s.req("GET", `/api/a/knowledge-bases/${b}`, { token: tok.MODELER }), 404);
  });

  test("process documents: upload 202, count of indexed chunks, delete, reindex, wipe", async () => {
    const base = "/api/a/definitions/claims/knowledge";
    const m = { token: tok.MODELER };
    expect(await json(await s.req("GET", `${base}/count`, m), 200)).toEqual({ definitionKey: "claims", count: 0 });
    const d1 = (
      await json<{ id: string }>(
        await upload(s, tok.MODELER, `${base}/documents`, "a.md", "# A\n\nalpha\n\n# B\n\nbeta"),
        202,
      )
    ).id;
    await json(await upload(s, tok.MANAGER, `${base}/documents`, "c.txt", "gamma"), 202);
    await drainJobs(s);
    expect(await json(await s.req("GET", `${base}/count`, m), 200)).toEqual({ definitionKey: "claims", count: 3 });
    expect((await s.req("DELETE", `${base}/documents/${d1}`, m)).status).toBe(204);
    expect(await json(await s.req("GET", `${base}/count`, m), 200)).toEqual({ definitionKey: "claims", count: 1 });
    expect(await json(await s.req("POST", `${base}/reindex`, m), 202)).toEqual({ definitionKey: "claims", queued: 1 });
    expect(await json(await s.req("GET", `${base}/count`, m), 200)).toEqual({ definitionKey: "claims", count: 0 });
    await drainJobs(s);
    expect(await json(await s.req("GET", `${base}/count`, m), 200)).toEqual({ definitionKey: "claims", count: 1 });
    // Another tenant's process of the same key is its own: nothing of this one is seen or removed.
    expect(await json(await s.req("GET", `${base}/count`, { token: tok.OTHER }), 200)).toEqual({
      definitionKey: "claims",
      count: 0,
    });
    expect((await s.req("DELETE", base, m)).status).toBe(204);
    expect(await json(await s.req("GET", `${base}/count`, m), 200)).toEqual({ definitionKey: "claims", count: 0 });
    const page = await json<{ totalElements: number }>(await s.req("GET", `${base}/documents`, m), 200);
    expect(page.totalElements).toBe(0);
  });
});
