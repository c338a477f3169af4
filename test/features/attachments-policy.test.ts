import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import type { AttachmentPolicy } from "../../app/services/attachments/process-access";
import { SYSTEM_ACTOR, systemTenantForToolCall } from "../../app/services/attachments/system-actor";
import { attachStream } from "../../app/services/attachments/attach";
import { deleteAttachment } from "../../app/services/attachments/delete";
import type { TenantCtx } from "../../app/services/context";

let s: TestServer;
let tenant: { id: string; slug: string };
const tok: Record<string, string> = {};
const uid: Record<string, string> = {};
let readKey = "";

const policies: Record<string, AttachmentPolicy | null> = {
  "proc-a": {
    uploadMode: "AD_HOC",
    uploadRoles: ["clerk"],
    previewRoles: ["clerk", "auditor"],
    replaceRoles: ["editor"],
  },
  "proc-form": { uploadMode: "FORM_ONLY", uploadRoles: [], previewRoles: [], replaceRoles: [] },
  "proc-off": { uploadMode: "DISABLED", uploadRoles: [], previewRoles: [], replaceRoles: [] },
  "proc-open": null,
};
const instances: Record<string, string> = {
  "inst-a": "proc-a",
  "inst-form": "proc-form",
  "inst-off": "proc-off",
  "inst-open": "proc-open",
};
const roles: Record<string, Record<string, string[]>> = {};

beforeAll(async () => {
  // The process side is a table of this test's (instances, policies, roles), given to the platform as its port.
  s = await startTestServer({
    processAccess: {
      definitionKeyOfInstance: (_ctx, id) => instances[id] ?? null,
      policyOf: (_ctx, key) => policies[key] ?? null,
      processRolesOf: (_ctx, key, userId) => roles[userId]?.[key] ?? [],
    },
  });
  const sa = await saToken(s);
  tenant = await createTenant(s, "att-policy", sa);
  for (const [name, role] of [
    ["admin", "ADMIN"],
    ["clerk", "USER"],
    ["auditor", "USER"],
    ["editor", "USER"],
    ["nobody", "MANAGER"],
  ] as const) {
    const u = await userInTenant(s, tenant, role, sa);
    tok[name] = u.token;
    uid[name] = u.id;
  }
  roles[uid.clerk] = { "proc-a": ["clerk"], "proc-form": ["clerk"], "proc-off": ["clerk"], "proc-open": ["anything"] };
  roles[uid.auditor] = { "proc-a": ["auditor"] };
  roles[uid.editor] = { "proc-a": ["editor"], "proc-form": ["editor"] };
  readKey = (await apiKey(s, tok.admin, ["read", "write"])).key;
});
afterAll(async () => {
  await s.close();
});

function form(
  entityId: string,
  content = "hello",
  name = "note.txt",
  type = "text/plain",
  entityType = "PROCESS_INSTANCE",
) {
  const f = new FormData();
  f.append("file", new Blob([content], { type }), name);
  f.append("entityType", entityType);
  f.append("entityId", entityId);
  return f;
}
const upload = (who: string, entityId: string, content?: string) =>
  s.req("POST", "/api/a/attachments", { token: tok[who], body: form(entityId, content) });
const caps = async (who: string, entityId: string) =>
  (
    await s.req("GET", `/api/a/attachments/capabilities?entityType=PROCESS_INSTANCE&entityId=${entityId}`, {
      token: tok[who],
    })
  ).json();
/** Runs `run` with the system's ctx of the tenant (leased, as every ctx is). */
const asSystem = <T>(run: (ctx: TenantCtx) => T | Promise<T>) =>
  s.platform.withTenantCtx(s.platform.tenants.get(tenant.id)!, SYSTEM_ACTOR, "test", run);
const stream = (text: string) => new Blob([text]).stream();

describe("attachment policy on PROCESS_INSTANCE", () => {
  let firstId = "";

  test("a user in uploadRoles uploads; the answer is the pinned metadata", async () => {
    const res = await upload("clerk", "inst-a", "first version");
    expect(res.status).toBe(201);
    const a = (await res.json()) as Record<string, unknown>;
    firstId = a.id as string;
    expect(a).toMatchObject({
      entityType: "PROCESS_INSTANCE",
      entityId: "inst-a",
      fileName: "note.txt",
      size: 13,
      version: 1,
      status: "CURRENT",
    });
    expect(a.contentType as string).toStartWith("text/plain");
  });

  test("download answers the bytes with Content-Type and Content-Disposition", async () => {
    const res = await s.req("GET", `/api/a/attachments/${firstId}/download`, { token: tok.auditor });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/plain");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="note.txt"; filename*=UTF-8''note.txt`);
    expect(await res.text()).toBe("first version");
    const inline = await s.req("GET", `/api/a/attachments/${firstId}/download?inline=true`, { token: tok.auditor });
    expect(inline.headers.get("content-disposition")).toStartWith("inline;");
  });

  test("a user holding a role outside uploadRoles cannot upload but previews through previewRoles", async () => {
    await expectError(await upload("auditor", "inst-a"), 403, /upload/);
    const list = await s.req("GET", "/api/a/attachments?entityType=PROCESS_INSTANCE&entityId=inst-a", {
      token: tok.auditor,
    });
    expect(((await list.json()) as unknown[]).length).toBe(1);
    expect((await s.req("GET", `/api/a/attachments/${firstId}`, { token: tok.auditor })).status).toBe(200);
  });

  test("a user with no role in the process reaches none of its attachments, even as tenant MANAGER", async () => {
    await expectError(await upload("nobody", "inst-a"), 403);
    await expectError(
      await s.req("GET", "/api/a/attachments?entityType=PROCESS_INSTANCE&entityId=inst-a", { token: tok.nobody }),
      403,
    );
    await expectError(await s.req("GET", `/api/a/attachments/${firstId}`, { token: tok.nobody }), 403);
    await expectError(await s.req("GET", `/api/a/attachments/${firstId}/download`, { token: tok.nobody }), 403);
    await expectError(await s.req("GET", `/api/a/attachments/${firstId}/history`, { token: tok.nobody }), 403);
    expect(await caps("nobody", "inst-a")).toEqual({ canUpload: false, canPreview: false, canReplace: false });
  });

  test("an API key holds no process role and reaches nothing", async () => {
    await expectError(await s.req("GET", `/api/a/attachments/${firstId}`, { apiKey: readKey }), 403);
    await expectError(await s.req("POST", "/api/a/attachments", { apiKey: readKey, body: form("inst-a") }), 403);
  });

  test("capabilities follow the roles; a tenant ADMIN passes every role check", async () => {
    expect(await caps("clerk", "inst-a")).toEqual({ canUpload: true, canPreview: true, canReplace: false });
    expect(await caps("auditor", "inst-a")).toEqual({ canUpload: false, canPreview: true, canReplace: false });
    expect(await caps("editor", "inst-a")).toEqual({ canUpload: false, canPreview: false, canReplace: true });
    expect(await caps("admin", "inst-a")).toEqual({ canUpload: true, canPreview: true, canReplace: true });
    expect((await upload("admin", "inst-a", "by admin")).status).toBe(201);
  });

  test("empty role lists (and no configured policy = AD_HOC) admit anyone with some role in the definition", async () => {
    expect((await upload("clerk", "inst-open")).status).toBe(201);
    await expectError(await upload("auditor", "inst-open"), 403);
    expect(await caps("clerk", "inst-open")).toEqual({ canUpload: true, canPreview: true, canReplace: true });
  });

  test("FORM_ONLY refuses the upload route for everybody, administrators included; the form path gets through", async () => {
    await expectError(await upload("clerk", "inst-form"), 403);
    await expectError(await upload("admin", "inst-form"), 403);
    expect((await caps("clerk", "inst-form")).canUpload).toBe(false);
    const viaForm = await asSystem((ctx) =>
      attachStream(
        { ...ctx, actor: { ...SYSTEM_ACTOR, kind: "user", userId: uid.clerk, channel: "REST" } },
        {
          entityType: "PROCESS_INSTANCE",
          entityId: "inst-form",
          fileName: "f.txt",
          contentType: "text/plain",
          data: stream("from form"),
        },
        "PROCESS",
      ),
    );
    expect(viaForm.version).toBe(1);
  });

  test("DISABLED refuses uploads and replaces", async () => {
    await expectError(await upload("clerk", "inst-off"), 403);
    expect(await caps("admin", "inst-off")).toEqual({ canUpload: false, canPreview: true, canReplace: false });
  });

  test("an unknown instance answers 404 to an upload, and all false (200) to capabilities", async () => {
    await expectError(await upload("admin", "inst-missing"), 404);
    const res = await s.req(
      "GET",
      "/api/a/attachments/capabilities?entityType=PROCESS_INSTANCE&entityId=inst-missing",
      {
        token: tok.admin,
      },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ canUpload: false, canPreview: false, canReplace: false });
  });

  test("replace supersedes the previous version, which leaves the listing and appears in the history", async () => {
    const f = new FormData();
    f.append("file", new Blob(["second version"], { type: "text/markdown" }), "note.md");
    await expectError(await s.req("POST", `/api/a/attachments/${firstId}/replace`, { token: tok.clerk, body: f }), 403);
    const res = await s.req("POST", `/api/a/attachments/${firstId}/replace`, { token: tok.editor, body: f });
    expect(res.status).toBe(201);
    const v2 = (await res.json()) as { id: string; version: number; rootId: string; fileName: string };
    expect(v2).toMatchObject({ version: 2, rootId: firstId, fileName: "note.md" });
    const list = (await (
      await s.req("GET", "/api/a/attachments?entityType=PROCESS_INSTANCE&entityId=inst-a", { token: tok.auditor })
    ).json()) as { id: string }[];
    expect(list.map((a) => a.id)).toContain(v2.id);
    expect(list.map((a) => a.id)).not.toContain(firstId);
    const history = (await (
      await s.req("GET", `/api/a/attachments/${v2.id}/history`, { token: tok.auditor })
    ).json()) as { id: string; status: string; supersededBy: string }[];
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ id: firstId, status: "SUPERSEDED", supersededBy: v2.id });
    const old = await s.req("GET", `/api/a/attachments/${firstId}/download`, { token: tok.auditor });
    expect(await old.text()).toBe("first version");
    const again = new FormData();
    again.append("file", new Blob(["x"]), "x.txt");
    await expectError(
      await s.req("POST", `/api/a/attachments/${firstId}/replace`, { token: tok.admin, body: again }),
      409,
    );
  });

  test("DELETE is refused for everybody, administrators and the system included", async () => {
    await expectError(await s.req("DELETE", `/api/a/attachments/${firstId}`, { token: tok.admin }), 403);
    await expectError(await s.req("DELETE", `/api/a/attachments/${firstId}`, { token: tok.clerk }), 403);
    await expect(asSystem((ctx) => deleteAttachment({ ctx, input: { id: firstId } }))).rejects.toThrow(
      /cannot be deleted/,
    );
  });

  test("the system acts on its own tenant's attachments, passing role checks", async () => {
    const a = await asSystem((ctx) =>
      attachStream(
        ctx,
        {
          entityType: "PROCESS_INSTANCE",
          entityId: "inst-a",
          fileName: "agent.txt",
          contentType: "text/plain",
          data: stream("by agent"),
        },
        "AD_HOC",
      ),
    );
    expect(a.uploadedBy).toBeNull();
  });
});

describe("system actor rule for agent tool calls", () => {
  test("a routed tenant with no declared tenant, or the same one, is accepted", () => {
    expect(systemTenantForToolCall({ routedTenantId: "t1" })).toBe("t1");
    expect(systemTenantForToolCall({ routedTenantId: "t1", declaredTenantId: "t1" })).toBe("t1");
  });
  test("a declared tenant different from the routed one is refused", () => {
    expect(() => systemTenantForToolCall({ routedTenantId: "t1", declaredTenantId: "t2" })).toThrow(
      /declared tenant t2/,
    );
  });
  test("without a routed tenant the system rule does not apply", () => {
    expect(() => systemTenantForToolCall({ routedTenantId: null, declaredTenantId: "t1" })).toThrow(/routed tenant/);
  });
});
