import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";

/** One user task whose name, group, due date and priority come from the start variables. */
const MODEL = (key: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  targetNamespace="t">
  <process id="${key}" name="Filter ${key}" isExecutable="true">
    <startEvent id="s"/>
    <userTask id="work" name="\${title}" camunda:candidateGroups="\${group}" camunda:dueDate="\${due}"
      camunda:priority="\${prio}"/>
    <endEvent id="e"/>
    <sequenceFlow id="f1" sourceRef="s" targetRef="work"/>
    <sequenceFlow id="f2" sourceRef="work" targetRef="e"/>
  </process>
</definitions>`;

type U = Awaited<ReturnType<typeof userInTenant>>;
let s: TestServer;
let manager: U, clerk: U, outsider: U, otherManager: U;
const DAY = 86_400_000;
const now = Date.now();
async function names(res: Response): Promise<string[]> {
  const body = await res.json();
  if (!Array.isArray(body)) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body.map((t: { name: string }) => t.name);
}

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "tfilter-a", sa);
  const other = await createTenant(s, "tfilter-b", sa);
  const modeler = await userInTenant(s, t, "MODELER", sa);
  [manager, clerk, outsider] = await Promise.all([
    userInTenant(s, t, "MANAGER", sa),
    userInTenant(s, t, "USER", sa),
    userInTenant(s, t, "USER", sa),
  ]);
  otherManager = await userInTenant(s, other, "MANAGER", sa);
  const role = await (
    await s.req("POST", "/api/a/process-roles", {
      token: modeler.token,
      json: { processKey: "alpha", key: "clerks", name: "Clerks" },
    })
  ).json();
  await s.req("POST", `/api/a/process-roles/${role.id}/members`, { token: modeler.token, json: { userId: clerk.id } });
  await deployBpmn(s, modeler.token, MODEL("alpha"));
  await deployBpmn(s, modeler.token, MODEL("beta"));
  const start = (key: string, businessKey: string, title: string, group: string, due: number, prio: number) =>
    startProcess(s, manager.token, {
      definitionKey: key,
      businessKey,
      variables: { title, group, due: new Date(due).toISOString(), prio, customer: `C-${businessKey}` },
    });
  // Sequential: `created` orders them (newest last started).
  await start("alpha", "BK-1", "Approve invoice", "clerks", now - DAY, 10);
  await start("alpha", "BK-2", "Check order", "clerks", now + 3 * DAY, 90);
  await start("alpha", "BK-3", "Approve leave", "bosses", now + 20 * DAY, 50);
  await start("beta", "BK-4", "Archive file", "clerks", now + 2 * 3_600_000, 70);
});
afterAll(() => s.close());

describe("GET /a/tasks filters, search, sort and count", () => {
  test("sorts by created, due, priority and name", async () => {
    const q = (sort: string) => s.req("GET", `/api/a/tasks?sort=${sort}`, { token: manager.token });
    expect(await names(await q("created"))).toEqual([
      "Archive file",
      "Approve leave",
      "Check order",
      "Approve invoice",
    ]);
    expect(await names(await q("due"))).toEqual(["Approve invoice", "Archive file", "Check order", "Approve leave"]);
    expect(await names(await q("priority"))).toEqual([
      "Check order",
      "Archive file",
      "Approve leave",
      "Approve invoice",
    ]);
    expect(await names(await q("name"))).toEqual(["Approve invoice", "Approve leave", "Archive file", "Check order"]);
  });

  test("pages a sorted list", async () => {
    const page = (n: number) => s.req("GET", `/api/a/tasks?sort=name&size=3&page=${n}`, { token: manager.token });
    expect(await names(await page(0))).toEqual(["Approve invoice", "Approve leave", "Archive file"]);
    expect(await names(await page(1))).toEqual(["Check order"]);
  });

  test("filters by process, candidate group, assignee and due window, with their counts", async () => {
    const both = async (query: string) => {
      const list = await names(await s.req("GET", `/api/a/tasks?${query}&sort=name`, { token: manager.token }));
      const count = await (await s.req("GET", `/api/a/tasks/count?${query}`, { token: manager.token })).json();
      expect(count).toEqual({ count: list.length });
      return list;
    };
    expect(await both("processKey=beta")).toEqual(["Archive file"]);
    expect(await both("candidateGroup=bosses")).toEqual(["Approve leave"]);
    expect(await both(`dueBefore=${new Date(now).toISOString()}`)).toEqual(["Approve invoice"]);
    const week = `dueAfter=${new Date(now).toISOString()}&dueBefore=${new Date(now + 7 * DAY).toISOString()}`;
    expect(await both(week)).toEqual(["Archive file", "Check order"]);
    expect(await both("unassigned=true")).toHaveLength(4);
    const [first] = await (await s.req("GET", "/api/a/tasks?processKey=beta", { token: manager.token })).json();
    expect((await s.req("POST", `/api/a/tasks/${first.id}/claim`, { token: manager.token })).status).toBe(200);
    expect(await both(`assignee=${manager.id}`)).toEqual(["Archive file"]);
    // The cockpit's drill-down names the assignee too.
    const parked = await (await s.req("GET", "/api/a/definitions/beta/monitor/work", { token: manager.token })).json();
    expect(parked).toEqual([
      expect.objectContaining({
        assignee: manager.id,
        assigneeUser: expect.objectContaining({ email: manager.email }),
      }),
    ]);
    expect(await both("unassigned=true")).toHaveLength(3);
    expect(await both("mine=true")).toEqual(["Archive file"]);
    await s.req("POST", `/api/a/tasks/${first.id}/unclaim`, { token: manager.token });
  });

  test("searches by name or business key words (any case) and by variable", async () => {
    const q = (query: string) => s.req("GET", `/api/a/tasks?${query}&sort=name`, { token: manager.token });
    expect(await names(await q("search=approve"))).toEqual(["Approve invoice", "Approve leave"]);
    expect(await names(await q("search=APPROVE%20leave"))).toEqual(["Approve leave"]);
    expect(await names(await q("search=bk-2"))).toEqual(["Check order"]);
    expect(await names(await q("search=50%25"))).toEqual([]);
    expect(await names(await q("varName=customer&varValue=C-BK-3"))).toEqual(["Approve leave"]);
    expect(await names(await q("varName=customer&varValue=nobody"))).toEqual([]);
  });

  test("a user sees only their role's tasks through every filter; another tenant sees none", async () => {
    const q = (token: string, query: string) => s.req("GET", `/api/a/tasks?${query}`, { token });
    // The same tasks as the unfiltered inbox (the group key matches in both processes), in another order.
    const inbox = await names(await q(clerk.token, ""));
    expect(inbox.sort()).toEqual(["Approve invoice", "Archive file", "Check order"]);
    expect(await names(await q(clerk.token, "sort=name"))).toEqual(inbox);
    expect(await names(await q(clerk.token, "candidateGroup=bosses"))).toEqual([]);
    expect(await names(await q(clerk.token, "search=approve"))).toEqual(["Approve invoice"]);
    expect(await (await s.req("GET", "/api/a/tasks/count?sort=due", { token: clerk.token })).json()).toEqual({
      count: 3,
    });
    expect(await names(await q(outsider.token, "sort=priority"))).toEqual([]);
    expect(await names(await q(otherManager.token, "processKey=alpha"))).toEqual([]);
    expect(
      await (await s.req("GET", "/api/a/tasks/count?processKey=alpha", { token: otherManager.token })).json(),
    ).toEqual({ count: 0 });
  });

  test("refuses bad values with fieldErrors", async () => {
    const bad = async (query: string, field: string) => {
      for (const path of ["/api/a/tasks", "/api/a/tasks/count"]) {
        const res = await s.req("GET", `${path}?${query}`, { token: manager.token });
        const body = await expectError(res, 400);
        expect((body.fieldErrors as { field: string }[]).map((f) => f.field)).toContain(field);
      }
    };
    await bad("sort=oldest", "sort");
    await bad("dueBefore=tomorrow", "dueBefore");
    await bad("varName=customer", "varValue");
    await bad("varValue=x", "varName");
    await bad(`unassigned=true&assignee=${manager.id}`, "assignee");
    await bad(`dueAfter=${new Date(now + DAY).toISOString()}&dueBefore=${new Date(now).toISOString()}`, "dueBefore");
    await bad(`search=${"x".repeat(201)}`, "search");
  });
});

describe("GET /a/instances: the cockpit's search", () => {
  type Page = { content: { businessKey: string; state: string }[]; totalElements: number };
  const list = async (token: string, query: string) => {
    const res = await s.req("GET", `/api/a/instances?${query}`, { token });
    expect(res.status).toBe(200);
    return (await res.json()) as Page;
  };
  const keys = (p: Page) => p.content.map((i) => i.businessKey).sort();

  test("by definition and version, business key prefix, variable, state and start window", async () => {
    expect(keys(await list(manager.token, "definitionKey=alpha"))).toEqual(["BK-1", "BK-2", "BK-3"]);
    expect(keys(await list(manager.token, "definitionKey=alpha&version=1&size=2"))).toHaveLength(2);
    expect((await list(manager.token, "definitionKey=alpha&version=1&size=2")).totalElements).toBe(3);
    expect(keys(await list(manager.token, "definitionKey=alpha&version=2"))).toEqual([]);
    expect(keys(await list(manager.token, "businessKey=BK-4"))).toEqual(["BK-4"]);
    expect(keys(await list(manager.token, "varName=customer&varValue=C-BK-2"))).toEqual(["BK-2"]);
    expect(keys(await list(manager.token, "state=ended"))).toEqual([]);
    expect(keys(await list(manager.token, "state=suspended"))).toEqual([]);
    const later = new Date(Date.now() + DAY).toISOString();
    expect(keys(await list(manager.token, `startedAfter=${later}`))).toEqual([]);
    expect(keys(await list(manager.token, `startedBefore=${later}&businessKey=BK`))).toHaveLength(4);
  });

  test("a user sees only instances they take part in; another tenant none", async () => {
    expect(keys(await list(outsider.token, "businessKey=BK"))).toEqual([]);
    expect(keys(await list(otherManager.token, "definitionKey=alpha&state=all"))).toEqual([]);
  });

  test("refuses bad values with fieldErrors", async () => {
    const bad = async (query: string, field: string) => {
      const body = await expectError(await s.req("GET", `/api/a/instances?${query}`, { token: manager.token }), 400);
      expect((body.fieldErrors as { field: string }[]).map((f) => f.field)).toContain(field);
    };
    await bad("state=sleeping", "state");
    await bad("startedAfter=yesterday", "startedAfter");
    await bad("varName=customer", "varValue");
    await bad("version=1", "definitionKey");
    await bad("version=0&definitionKey=alpha", "version");
    await bad("type=CMMN&businessKey=BK", "type");
    await bad(
      `startedAfter=${new Date(now + DAY).toISOString()}&startedBefore=${new Date(now).toISOString()}`,
      "startedBefore",
    );
  });
});
