import { describe, expect, test } from "bun:test";
import { mcpToolName } from "./mcp-remote";

describe("names of MCP tools offered to models", () => {
  test("namespaced by server; characters the model APIs refuse become _", () => {
    const taken = new Set<string>();
    expect(mcpToolName("orders", "lookup_order", taken)).toBe("mcp_orders_lookup_order");
    expect(mcpToolName("crm-eu", "contacts.search/v2", taken)).toBe("mcp_crm-eu_contacts_search_v2");
  });

  test("a name past 64 characters or clashing once sanitized is cut and ends with a stable hash", () => {
    const taken = new Set<string>();
    const long = mcpToolName("orders", "a".repeat(80), taken);
    expect(long).toMatch(/^mcp_orders_a+_[0-9a-f]{8}$/);
    expect(long.length).toBe(64);
    expect(mcpToolName("orders", "a".repeat(80), new Set())).toBe(long);
    const first = mcpToolName("orders", "get.item", taken);
    const second = mcpToolName("orders", "get item", taken);
    expect(first).toBe("mcp_orders_get_item");
    expect(second).toMatch(/^mcp_orders_get_item_[0-9a-f]{8}$/);
    for (const n of taken) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});
