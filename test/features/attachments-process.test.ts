import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";

type U = Awaited<ReturnType<typeof userInTenant>>;
let s: TestServer;
let modeler: U, approver: U, outsider: U, starter: U, otherAdmin: U;
let instanceId = "";

function form(entityId: string, content = "hello") {
  const f = new FormData();
  f.append("file", new Blob([content], { type: "text/plain" }), "note.txt");
  f.append("entityType", "PROCESS_INSTANCE");
  f.append("entityId", entityId);
  return f;
}

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "att-real", sa);
  [modeler, approver, outsider, starter] = await Promise.all(
    (["MODELER", "USER", "USER", "USER"] as const).map((r) => userInTenant(s, t, r, sa)),
  );
  otherAdmin = await userInTenant(s, await createTenant(s, "att-other", sa), "ADMIN", sa);
  await deployBpmn(s, modeler.token, bpmnFixture("approval.bpmn"));
  const role = await (
    await s.req("POST", "/api/a/process-roles", {
      token: modeler.token,
      json: { processKey: "approval", key: "approvers", name: "Approvers" },
    })
  ).json();
  await s.req("POST", `/api/a/process-roles/${role.id}/members`, {
    token: modeler.token,
    json: { userId: approver.id },
  });
  // The starter takes part in the instance but holds no role in the process.
  instanceId = (await startProcess(s, starter.token, { definitionKey: "approval" })).id;
});
afterAll(() => s.close());

describe("attachments on a real process instance", () => {
  test("without a configured policy (AD_HOC, empty lists) a holder of a role in the process uploads and previews", async () => {
    const up = await s.req("POST", "/api/a/attachments", { token: approver.token, body: form(instanceId, "contract") });
    expect(up.status).toBe(201);
    const a = await up.json();
    expect(a).toMatchObject({ entityType: "PROCESS_INSTANCE", entityId: instanceId, fileName: "note.txt", version: 1 });
    const dl = await s.req("GET", `/api/a/attachments/${a.id}/download`, { token: approver.token });
    expect(await dl.text()).toBe("contract");
    const caps = await (
      await s.req("GET", `/api/a/attachments/capabilities?entityType=PROCESS_INSTANCE&entityId=${instanceId}`, {
        token: approver.token,
      })
    ).json();
    expect(caps).toEqual({ canUpload: true, canPreview: true, canReplace: true });
  });

  test("a user who takes part but holds no role in the process reaches none of its attachments", async () => {
    const list = await s.req("GET", `/api/a/attachments?entityType=PROCESS_INSTANCE&entityId=${instanceId}`, {
      token: starter.token,
    });
    await expectError(list, 403, /preview/);
    const caps = await (
      await s.req("GET", `/api/a/attachments/capabilities?entityType=PROCESS_INSTANCE&entityId=${instanceId}`, {
        token: starter.token,
      })
    ).json();
    expect(caps).toEqual({ canUpload: false, canPreview: false, canReplace: false });
    await expectError(
      await s.req("POST", "/api/a/attachments", { token: starter.token, body: form(instanceId) }),
      403,
      /upload/,
    );
  });

  test("for a user who takes no part in the instance it does not exist (404, never 403)", async () => {
    await expectError(
      await s.req("GET", `/api/a/attachments?entityType=PROCESS_INSTANCE&entityId=${instanceId}`, {
        token: outsider.token,
      }),
      404,
    );
    await expectError(
      await s.req("POST", "/api/a/attachments", { token: outsider.token, body: form(instanceId) }),
      404,
    );
  });

  test("capabilities answer all false, never 404, for an instance the caller does not reach or that does not exist", async () => {
    const none = { canUpload: false, canPreview: false, canReplace: false };
    for (const [token, id] of [
      [outsider.token, instanceId],
      [otherAdmin.token, instanceId],
      [approver.token, "no-such-instance"],
    ]) {
      const res = await s.req("GET", `/api/a/attachments/capabilities?entityType=PROCESS_INSTANCE&entityId=${id}`, {
        token,
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(none);
    }
  });

  test("the policy set through PUT /a/definitions/{key}/config applies: FORM_ONLY refuses uploads, even to role holders", async () => {
    const cfg = await s.req("PUT", "/api/a/definitions/approval/config", {
      token: modeler.token,
      json: { attachmentPolicy: { uploadMode: "FORM_ONLY", uploadRoles: [], previewRoles: [], replaceRoles: [] } },
    });
    expect(cfg.status).toBe(200);
    await expectError(
      await s.req("POST", "/api/a/attachments", { token: approver.token, body: form(instanceId) }),
      403,
    );
    const eff = await (
      await s.req("GET", "/api/a/definitions/approval/attachment-policy", { token: modeler.token })
    ).json();
    expect(eff.uploadMode).toBe("FORM_ONLY");
  });

  test("another tenant never reaches the instance's attachments", async () => {
    await expectError(
      await s.req("POST", "/api/a/attachments", { token: otherAdmin.token, body: form(instanceId) }),
      404,
    );
  });
});
