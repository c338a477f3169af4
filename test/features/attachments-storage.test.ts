import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { tenantFilesDir } from "../../tenants/paths";

let s: TestServer;
let t1: { id: string; slug: string };
const tok: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer({ env: { MAX_UPLOAD_BYTES: "4096" } });
  const sa = await saToken(s);
  t1 = await createTenant(s, "att-store", sa);
  const t2 = await createTenant(s, "att-other", sa);
  tok.manager = (await userInTenant(s, t1, "MANAGER", sa)).token;
  tok.user = (await userInTenant(s, t1, "USER", sa)).token;
  tok.other = (await userInTenant(s, t2, "ADMIN", sa)).token;
});
afterAll(() => s.close());

function form(
  content: string | Uint8Array,
  fields: Record<string, string> = { entityType: "GLOBAL", entityId: "handbook" },
  name = "doc.pdf",
) {
  const f = new FormData();
  f.append("file", new Blob([content as BlobPart], { type: "application/pdf" }), name);
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}
const post = (who: string, body: FormData) => s.req("POST", "/api/a/attachments", { token: tok[who], body });
const files = () => {
  const dir = join(tenantFilesDir(s.platform.config.dataDir, t1.id), "attachments");
  return existsSync(dir) ? readdirSync(dir).flatMap((d) => readdirSync(join(dir, d))) : [];
};
const temps = () => {
  const dir = join(tenantFilesDir(s.platform.config.dataDir, t1.id), "tmp");
  return existsSync(dir) ? readdirSync(dir) : [];
};
const listGlobal = async (who = "user") =>
  (await (
    await s.req("GET", "/api/a/attachments?entityType=GLOBAL&entityId=handbook", { token: tok[who] })
  ).json()) as { id: string; sha256: string }[];

describe("attachment storage", () => {
  test("a file above the maximum size answers 413 and leaves no row, no file and no temporary file", async () => {
    await expectError(await post("manager", form(new Uint8Array(5000))), 413, /maximum upload size/);
    expect(await listGlobal()).toEqual([]);
    expect(files()).toEqual([]);
    expect(temps()).toEqual([]);
  });

  test("a declared body far above the limit is refused before it is read", async () => {
    const res = await s.req("POST", "/api/a/attachments", {
      token: tok.manager,
      body: "x",
      headers: { "content-type": "multipart/form-data; boundary=abc", "content-length": String(50 * 1024 * 1024) },
    });
    await expectError(res, 413);
  });

  test("files are content-addressed: identical uploads share one stored file named by its sha256", async () => {
    const a = (await (await post("manager", form("same bytes"))).json()) as { id: string; sha256: string };
    const b = (await (await post("manager", form("same bytes"))).json()) as { id: string; sha256: string };
    expect(a.sha256).toBe(b.sha256);
    expect(a.sha256).toBe(new Bun.CryptoHasher("sha256").update("same bytes").digest("hex"));
    expect(files()).toEqual([a.sha256]);
    expect(temps()).toEqual([]);
  });

  test("GLOBAL attachments: every member previews, only Managers and Modelers write", async () => {
    expect((await listGlobal("user")).length).toBe(2);
    await expectError(await post("user", form("mine")), 403);
    const id = (await listGlobal())[0].id;
    await expectError(await s.req("DELETE", `/api/a/attachments/${id}`, { token: tok.user }), 403);
  });

  test("deleting keeps a file another attachment still uses, and removes it with the last one", async () => {
    const [a, b] = await listGlobal();
    expect((await s.req("DELETE", `/api/a/attachments/${a.id}`, { token: tok.manager })).status).toBe(204);
    expect(files()).toEqual([a.sha256]);
    expect((await s.req("GET", `/api/a/attachments/${b.id}/download`, { token: tok.user })).status).toBe(200);
    expect((await s.req("DELETE", `/api/a/attachments/${b.id}`, { token: tok.manager })).status).toBe(204);
    expect(files()).toEqual([]);
    await expectError(await s.req("GET", `/api/a/attachments/${b.id}`, { token: tok.manager }), 404);
  });

  test("malformed uploads answer 400 and write nothing", async () => {
    await expectError(await post("manager", form("x", { entityType: "SOMETHING", entityId: "a" })), 400, /entityType/);
    await expectError(await post("manager", form("x", { entityType: "GLOBAL" })), 400, /entityId/);
    const noFile = new FormData();
    noFile.append("entityType", "GLOBAL");
    noFile.append("entityId", "handbook");
    await expectError(await post("manager", noFile), 400, /file/);
    await expectError(
      await s.req("POST", "/api/a/attachments", { token: tok.manager, json: { entityType: "GLOBAL" } }),
      400,
      /multipart/,
    );
    await expectError(
      await post("manager", form("x", { entityType: "GLOBAL", entityId: "handbook", documentTypeId: "nope" })),
      400,
      /document type/,
    );
    expect(files()).toEqual([]);
    expect(temps()).toEqual([]);
  });

  test("a file name is stored without its path and served back in Content-Disposition", async () => {
    const res = await post(
      "manager",
      form("named", { entityType: "GLOBAL", entityId: "handbook" }, "../../etc/relatório final.pdf"),
    );
    const a = (await res.json()) as { id: string; fileName: string };
    expect(a.fileName).toBe("relatório final.pdf");
    const dl = await s.req("GET", `/api/a/attachments/${a.id}/download`, { token: tok.user });
    expect(dl.headers.get("content-type")).toBe("application/pdf");
    expect(dl.headers.get("content-disposition")).toBe(
      `attachment; filename="relat_rio final.pdf"; filename*=UTF-8''relat%C3%B3rio%20final.pdf`,
    );
  });

  test("a valid document type is recorded on the attachment", async () => {
    const dt = await s.req("POST", "/api/a/document-types", { token: tok.manager, json: { name: "Invoice" } });
    expect(dt.status).toBe(403);
    const admin = await userInTenant(s, t1, "MODELER");
    const created = (await (
      await s.req("POST", "/api/a/document-types", { token: admin.token, json: { name: "Invoice" } })
    ).json()) as { id: string };
    const res = await post(
      "manager",
      form("typed", { entityType: "GLOBAL", entityId: "handbook", documentTypeId: created.id }),
    );
    expect(((await res.json()) as { documentTypeId: string }).documentTypeId).toBe(created.id);
  });
});

describe("attachment tenant isolation", () => {
  test("another tenant's attachment id answers 404 on every route and its file is never read", async () => {
    const a = (await (await post("manager", form("tenant one only"))).json()) as { id: string };
    const replace = new FormData();
    replace.append("file", new Blob(["intruder"]), "x.txt");
    for (const [method, path] of [
      ["GET", ""],
      ["GET", "/download"],
      ["GET", "/history"],
      ["DELETE", ""],
    ] as const) {
      await expectError(await s.req(method, `/api/a/attachments/${a.id}${path}`, { token: tok.other }), 404);
    }
    await expectError(
      await s.req("POST", `/api/a/attachments/${a.id}/replace`, { token: tok.other, body: replace }),
      404,
    );
    const theirs = await s.req("GET", "/api/a/attachments?entityType=GLOBAL&entityId=handbook", { token: tok.other });
    expect(await theirs.json()).toEqual([]);
    const mine = await s.req("GET", `/api/a/attachments/${a.id}/download`, { token: tok.user });
    expect(await mine.text()).toBe("tenant one only");
  });
});
