import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { browserOn, describeInBrowser } from "../harness/browser";
import { signedInPage } from "../harness/console-page";

// CMS in the browser: a Manager creates a collection (fields as lines), adds, changes and deletes records (typed
// values checked through the API), empties and deletes it, each confirmed; a Modeler reads PUBLIC collections only
// and gets no write controls.

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
type Member = Awaited<ReturnType<typeof userInTenant>>;
let manager: Member, modeler: Member;

const records = async (id: string) =>
  (
    (await (await s.req("GET", `/api/a/cms/collections/${id}/records`, { token: manager.token })).json()) as {
      content: { values: Record<string, unknown> }[];
    }
  ).content.map((r) => r.values);

describeInBrowser("CMS collections in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "console-cms", sa);
    manager = await userInTenant(s, t, "MANAGER", sa);
    modeler = await userInTenant(s, t, "MODELER", sa);
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("a Manager creates a collection, adds, changes and deletes records; a Modeler reads without controls", async () => {
    const cp = await signedInPage(web.browser, web.url, manager, "Tasks");
    const { page } = cp;
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByRole("link", { name: "CMS", exact: true }).click();
    await page.getByText("No collections you may read.").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Prices");
    await page
      .getByLabel(/^Fields/)
      .fill("sku: text! Article\nprice: number Price\nsize: select = S, M, L\nactive: boolean");
    await page.getByRole("button", { name: "Create collection" }).click();
    await page.getByRole("heading", { name: /Prices/ }).waitFor();
    await page.getByText("No records yet.").waitFor();
    const form = page.getByRole("form", { name: "New record" });
    await form.getByLabel("Article *").fill("A-1");
    await form.getByLabel("Price").fill("12.5");
    await form.getByLabel("size").selectOption("M");
    await form.getByLabel("active").selectOption("true");
    await form.getByRole("button", { name: "Add record" }).click();
    await page.locator('tr[data-record="0"]').waitFor();
    const [coll] = (await (await s.req("GET", "/api/a/cms/collections", { token: manager.token })).json()) as {
      id: string;
    }[];
    expect(await records(coll.id)).toEqual([{ sku: "A-1", price: 12.5, size: "M", active: true }]);
    // A second record, its price left empty (not required): the value is absent, not 0.
    await form.getByLabel("Article *").fill("A-2");
    await form.getByLabel("Price").fill("");
    await form.getByRole("button", { name: "Add record" }).click();
    await page.locator('tr[data-record="1"]').waitFor();
    expect((await records(coll.id)).find((r) => r.sku === "A-2")).toEqual({ sku: "A-2" });
    await page.getByRole("button", { name: "Change record 1" }).click();
    const change = page.getByRole("form", { name: "Change the record" });
    expect(await change.getByLabel("Article *").inputValue()).toBe("A-1");
    await change.getByLabel("Price").fill("13");
    await change.getByRole("button", { name: "Save the record" }).click();
    await page.locator('tr[data-record="0"]', { hasText: "13" }).waitFor();
    expect((await records(coll.id)).find((r) => r.sku === "A-1")?.price).toBe(13);
    await cp.shot("80-cms-collection");
    await page.getByRole("button", { name: "Delete record 2" }).click();
    expect(cp.asked.pop()).toMatch(/Delete this record\?/);
    await page.locator('tr[data-record="1"]').waitFor({ state: "detached" });
    expect(await records(coll.id)).toHaveLength(1);

    // A SECRET collection stays out of a Modeler's (PUBLIC) list.
    await s.req("POST", "/api/a/cms/collections", {
      token: manager.token,
      json: { name: "Salaries", confidentiality: "SECRET", fields: [{ name: "who", type: "text" }] },
    });
    const m = await signedInPage(web.browser, web.url, modeler, "Tasks");
    await m.page.goto(`${web.url}/#/settings/cms`);
    await m.page.locator('tr[data-name="Prices"]').waitFor();
    expect(await m.page.locator('tr[data-name="Salaries"]').count()).toBe(0);
    await m.page.getByRole("link", { name: "Prices" }).click();
    await m.page.locator('tr[data-record="0"]').waitFor();
    expect(await m.page.getByRole("button", { name: /Delete|Change|Add record/ }).count()).toBe(0);
    expect(m.problems).toEqual([]);
    await m.page.close();

    // A bulk load by key: the existing A-1 updated, B-1 added.
    await page.getByRole("button", { name: "Load records" }).click();
    await page.getByLabel("Records (a JSON array of objects)").fill('[{"sku": "A-1", "price": 20}, {"sku": "B-1"}]');
    await page.getByLabel(/^Key field/).fill("sku");
    await page.getByRole("button", { name: "Load", exact: true }).click();
    await page.getByText("Loaded: 1 added, 1 updated (2 records now).").waitFor();
    expect((await records(coll.id)).find((r) => r.sku === "A-1")?.price).toBe(20);
    await page.getByRole("button", { name: "Delete all records" }).click();
    expect(cp.asked.pop()).toMatch(/Delete all 2 records of Prices\?/);
    await page.getByText("No records yet.").waitFor();
    await page.getByRole("button", { name: "Delete the collection" }).click();
    await page.getByRole("heading", { name: "CMS collections" }).waitFor();
    const left = (await (await s.req("GET", "/api/a/cms/collections", { token: manager.token })).json()) as {
      name: string;
    }[];
    expect(left.map((c) => c.name)).toEqual(["Salaries"]);
    expect(cp.problems).toEqual([]);
    await page.close();
  });

  test("a Modeler's data sources: created, tried with a parameter, changed, deleted; the delegates listed", async () => {
    const cp = await signedInPage(web.browser, web.url, modeler, "Tasks");
    const { page } = cp;
    await page.goto(`${web.url}/#/settings/data-sources`);
    await page.getByText("No data sources yet.").waitFor();
    const form = page.getByRole("form", { name: "New data source" });
    await form.getByLabel("Key").fill("countries");
    await form.getByLabel("Name").fill("Countries");
    await form.getByLabel("Configuration (JSON)").fill(
      JSON.stringify({
        rows: [
          { value: "pt", label: "Portugal" },
          { value: "br", label: "Brasil" },
        ],
      }),
    );
    await form.getByRole("button", { name: "Create data source" }).click();
    await page.getByText("Data source Countries created.").waitFor();
    await page.getByRole("button", { name: "Try Countries" }).click();
    await page.getByLabel("Parameters (JSON object)").fill('{"search": "bra"}');
    await page.getByRole("button", { name: "Run" }).click();
    await page.getByText("1 row", { exact: true }).waitFor();
    expect(await page.locator("td", { hasText: "Brasil" }).count()).toBe(1);
    await cp.shot("81-data-sources");
    await page.getByRole("button", { name: "Change Countries" }).click();
    await page.getByRole("form", { name: "Change Countries" }).getByLabel("Name").fill("Countries of sale");
    await page.getByRole("button", { name: "Save Countries" }).click();
    await page.getByText("Countries of sale saved.").waitFor();
    const one = await (await s.req("GET", "/api/a/forms/datasources/countries", { token: modeler.token })).json();
    expect(one).toMatchObject({ name: "Countries of sale", kind: "STATIC" });
    await page.getByRole("button", { name: "Delete Countries of sale" }).click();
    expect(cp.asked.pop()).toMatch(/Delete the data source “Countries of sale”/);
    await page.getByText("No data sources yet.").waitFor();
    expect((await s.req("GET", "/api/a/forms/datasources/countries", { token: modeler.token })).status).toBe(404);

    await page.getByRole("link", { name: "Delegates" }).click();
    await page.getByRole("heading", { name: "Delegates" }).waitFor();
    const delegates = (await (await s.req("GET", "/api/a/delegates", { token: modeler.token })).json()) as {
      name: string;
    }[];
    expect(delegates.length).toBeGreaterThan(0);
    await page.locator(`article[data-name="${delegates[0].name}"]`).waitFor();
    expect(cp.problems).toEqual([]);
    await page.close();
  });
});
