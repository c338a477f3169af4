import { beforeAll, describe, expect, test } from "bun:test";
import { expectError, saToken } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { APPROVAL, s, modeler, user, otherAdmin, useProcessRoutesScenario } from "./process-routes.setup";

useProcessRoutesScenario();
// These scenarios need the definition the deployment scenarios of process-routes.test.ts create.
beforeAll(() => deployBpmn(s, modeler.token, APPROVAL));

describe("tenant isolation", () => {
  test("another tenant may hold the same key; each sees only its own, and foreign ids answer 404", async () => {
    const mine = await startProcess(s, user.token, { definitionKey: "approval" });
    await expectError(await s.req("GET", "/api/a/definitions/approval", { token: otherAdmin.token }), 404);
    await expectError(await s.req("GET", `/api/a/instances/${mine.id}`, { token: otherAdmin.token }), 404);
    await expectError(await s.req("DELETE", `/api/a/instances/${mine.id}`, { token: otherAdmin.token }), 404);
    const theirs = await deployBpmn(s, otherAdmin.token, APPROVAL);
    expect(theirs.definitions[0].version).toBe(1);
    const started = await startProcess(s, otherAdmin.token, { definitionKey: "approval" });
    expect(started.version).toBe(1);
  });
});

describe("process configuration variables", () => {
  test("Modelers write, Admins see secrets masked, members see only the public ones", async () => {
    const put = await s.req("PUT", "/api/a/definitions/approval/variables/notifyEmail", {
      token: modeler.token,
      json: { value: "ops@acme.test" },
    });
    expect(await put.json()).toMatchObject({ name: "notifyEmail", value: "ops@acme.test", secret: false });
    await expectError(
      await s.req("PUT", "/api/a/definitions/approval/variables/apiToken", {
        token: modeler.token,
        json: { value: "s3cr3t", secret: true },
      }),
      403,
    );
    const sa = await saToken(s);
    const sel = await (
      await s.req("POST", "/api/auth/select-tenant", { token: sa, json: { tenantSlug: "proc-a" } })
    ).json();
    const secret = await s.req("PUT", "/api/a/definitions/approval/variables/apiToken", {
      token: sel.accessToken,
      json: { value: "s3cr3t", secret: true },
    });
    expect((await secret.json()).value).toBeNull();
    const all = await (await s.req("GET", "/api/a/definitions/approval/variables", { token: sel.accessToken })).json();
    expect(all).toEqual([
      expect.objectContaining({ name: "apiToken", value: null, secret: true }),
      expect.objectContaining({ name: "notifyEmail", value: "ops@acme.test" }),
    ]);
    expect(JSON.stringify(all)).not.toContain("s3cr3t");
    await expectError(await s.req("GET", "/api/a/definitions/approval/variables", { token: modeler.token }), 403);
    const pub = await (
      await s.req("GET", "/api/a/definitions/approval/variables/public", { token: user.token })
    ).json();
    expect(pub.map((v: { name: string }) => v.name)).toEqual(["notifyEmail"]);
    await expectError(
      await s.req("DELETE", "/api/a/definitions/approval/variables/apiToken", { token: modeler.token }),
      403,
    );
    expect(
      (await s.req("DELETE", "/api/a/definitions/approval/variables/notifyEmail", { token: modeler.token })).status,
    ).toBe(204);
    await expectError(await s.req("GET", "/api/a/definitions/unknown/variables/public", { token: user.token }), 404);
    // proc-b holds its own "approval": none of proc-a's variables show there.
    expect(
      await (await s.req("GET", "/api/a/definitions/approval/variables", { token: otherAdmin.token })).json(),
    ).toEqual([]);
  });
});
