import { describe, expect, test } from "bun:test";
import { apiKey, expectError, userInTenant } from "../harness/fixtures";
import { startProcess } from "../harness/process";
import { env, fetchLock, newRunner, openActivities, runnerReq, useRobotServer } from "./robots.setup";

useRobotServer();

describe("robots (Admin)", () => {
  test("create, list, update, delete; a second key is a 409; malformed bodies are 400", async () => {
    const { s, admin } = env;
    const body = {
      key: "erp.sync",
      name: "ERP sync",
      description: "pushes orders",
      parameters: [
        { name: "endpoint", type: "string", required: true, secret: false },
        { name: "apiToken", type: "string", required: false, secret: true },
      ],
    };
    const created = await s.req("POST", "/api/a/robots", { token: admin, json: body });
    expect(created.status).toBe(201);
    await expectError(await s.req("POST", "/api/a/robots", { token: admin, json: body }), 409);
    await expectError(await s.req("POST", "/api/a/robots", { token: admin, json: { key: "1bad", name: "x" } }), 400);
    await expectError(
      await s.req("POST", "/api/a/robots", {
        token: admin,
        json: { key: "dup", name: "x", parameters: [body.parameters[0], body.parameters[0]] },
      }),
      400,
      /defined twice/,
    );
    await expectError(
      await s.req("POST", "/api/a/robots", {
        token: admin,
        json: { key: "t", name: "x", parameters: [{ name: "a", type: "date" }] },
      }),
      400,
    );
    const list = (await (await s.req("GET", "/api/a/robots", { token: admin })).json()) as { key: string }[];
    expect(list.map((r) => r.key)).toContain("erp.sync");
    const upd = await s.req("PUT", "/api/a/robots/erp.sync", {
      token: admin,
      json: { name: "ERP", parameters: body.parameters },
    });
    expect(((await upd.json()) as { name: string }).name).toBe("ERP");
    expect((await s.req("DELETE", "/api/a/robots/erp.sync", { token: admin })).status).toBe(204);
    await expectError(await s.req("GET", "/api/a/robots/erp.sync", { token: admin }), 404);
  });

  test("every /a/robots and /a/robot-runners route refuses MODELER, MANAGER, USER and API keys (403)", async () => {
    const { s, admin, tenant } = env;
    for (const role of ["MODELER", "MANAGER", "USER"] as const) {
      const u = await userInTenant(s, tenant, role);
      await expectError(await s.req("GET", "/api/a/robots", { token: u.token }), 403);
      await expectError(await s.req("POST", "/api/a/robots", { token: u.token, json: { key: "x", name: "x" } }), 403);
      await expectError(await s.req("GET", "/api/a/robots/crm/config", { token: u.token }), 403);
      await expectError(await s.req("PUT", "/api/a/robots/crm/config", { token: u.token, json: { values: {} } }), 403);
      await expectError(await s.req("GET", "/api/a/robot-runners", { token: u.token }), 403);
      await expectError(await s.req("POST", "/api/a/robot-runners", { token: u.token, json: { name: "x" } }), 403);
    }
    const key = await apiKey(s, admin, ["read", "write"]);
    expect((await s.req("GET", "/api/a/robots", { apiKey: key.key })).status).toBe(403);
  });

  test("another tenant's robots and runners answer 404", async () => {
    const { s, otherAdmin } = env;
    const runner = await newRunner("mine");
    await expectError(await s.req("GET", "/api/a/robots/crm", { token: otherAdmin }), 404);
    await expectError(await s.req("GET", "/api/a/robots/crm/config", { token: otherAdmin }), 404);
    await expectError(await s.req("PUT", "/api/a/robots/crm", { token: otherAdmin, json: { name: "x" } }), 404);
    await expectError(await s.req("DELETE", "/api/a/robots/crm", { token: otherAdmin }), 404);
    await expectError(await s.req("DELETE", `/api/a/robot-runners/${runner.id}`, { token: otherAdmin }), 404);
    const theirs = (await (await s.req("GET", "/api/a/robot-runners", { token: otherAdmin })).json()) as unknown[];
    expect(theirs).toEqual([]);
  });
});

describe("robot configuration and secret parameters", () => {
  test("a secret parameter holds a tenant variable reference: never a value on GET, resolved at hand-off", async () => {
    const { s, admin, tenant } = env;
    const secretValue = "s3cr3t-token-value-xyz";
    expect(
      (
        await s.req("POST", "/api/a/variables", {
          token: admin,
          json: { name: "CRM_TOKEN", value: secretValue, secret: true },
        })
      ).status,
    ).toBe(201);
    const params = [
      { name: "endpoint", type: "string", required: true, secret: false },
      { name: "token", type: "string", required: true, secret: true },
      { name: "limit", type: "number", required: false, secret: false },
    ];
    await s.req("PUT", "/api/a/robots/crm", { token: admin, json: { name: "CRM", parameters: params } });
    const put = (values: unknown) => s.req("PUT", "/api/a/robots/crm/config", { token: admin, json: { values } });
    await expectError(await put({ endpoint: "https://crm", token: secretValue }), 400, /variable/);
    await expectError(await put({ endpoint: "https://crm", token: { variable: "NOPE" } }), 400, /does not exist/);
    await expectError(await put({ token: { variable: "CRM_TOKEN" } }), 400, /endpoint is required/);
    await expectError(await put({ endpoint: 5, token: { variable: "CRM_TOKEN" } }), 400, /string/);
    await expectError(await put({ endpoint: "x", token: { variable: "CRM_TOKEN" }, extra: 1 }), 400, /no such/);
    await expectError(await s.req("PUT", "/api/a/robots/crm/config", { token: admin, json: { values: "x" } }), 400);
    expect((await put({ endpoint: "https://crm", token: { variable: "CRM_TOKEN" }, limit: 3 })).status).toBe(200);

    const got = await (await s.req("GET", "/api/a/robots/crm/config", { token: admin })).text();
    expect(got).not.toContain(secretValue);
    expect(JSON.parse(got).values.token).toEqual({ variable: "CRM_TOKEN" });

    const runner = await newRunner("crm-runner");
    const inst = await startProcess(s, admin, { definitionKey: "robotFlow", variables: { order: 7 } });
    const [task] = await fetchLock(runner.token, "crm");
    expect(task.processInstanceId).toBe(inst.id);
    expect(task.parameters).toEqual({ endpoint: "https://crm", token: secretValue, limit: 3 });
    expect(task.variables.order).toEqual({ type: "Integer", value: 7, valueInfo: {} });
    expect((await runnerReq(runner.token, `/${task.id}/complete`, { variables: { done: true } })).status).toBe(204);
    expect(openActivities(inst.id)).toEqual(["after"]);
    expect(s.platform.processRuntime.getVariables(tenant.id, inst.id).done).toBe(true);
  });
});
