import { describe, expect, test } from "bun:test";
import { arrange } from "./tasks-order";

const t = (name: string, extra: Partial<Parameters<typeof arrange>[0][number]> = {}) => ({
  name,
  businessKey: null,
  definitionKey: "leave",
  created: "2026-11-01T10:00:00Z",
  dueDate: null,
  priority: 50,
  ...extra,
});

describe("tasklist search and sort", () => {
  const list = [
    t("Approve leave", { businessKey: "LV-2", created: "2026-11-03T10:00:00Z", priority: 70 }),
    t("Review order", { definitionKey: "order", dueDate: "2026-11-10T00:00:00Z", created: "2026-11-02T10:00:00Z" }),
    t("Pay invoice", { businessKey: "INV-9", dueDate: "2026-11-05T00:00:00Z", priority: 90 }),
  ];
  const names = (x: { name: string }[]) => x.map((y) => y.name);
  test("search: every word in the name, business key or process, any case or accent", () => {
    expect(names(arrange(list, "inv", "created"))).toEqual(["Pay invoice"]);
    expect(names(arrange(list, "ORDER review", "created"))).toEqual(["Review order"]);
    expect(names(arrange(list, "lv-2", "created"))).toEqual(["Approve leave"]);
    expect(names(arrange(list, "Àpprove", "created"))).toEqual(["Approve leave"]);
    expect(arrange(list, "nothing", "created")).toEqual([]);
  });
  test("sort by created (newest first), due (soonest, none last), priority (highest) and name", () => {
    expect(names(arrange(list, "", "created"))).toEqual(["Approve leave", "Review order", "Pay invoice"]);
    expect(names(arrange(list, "", "due"))).toEqual(["Pay invoice", "Review order", "Approve leave"]);
    expect(names(arrange(list, "", "priority"))).toEqual(["Pay invoice", "Approve leave", "Review order"]);
    expect(names(arrange(list, "", "name"))).toEqual(["Approve leave", "Pay invoice", "Review order"]);
  });
});
