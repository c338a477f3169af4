import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./config";

const configWith = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), "config-")), ...env });

describe("WEBHOOKS_ALLOW_PRIVATE, HTTP_TASKS_ALLOW_PRIVATE and MCP_SERVERS_ALLOW_PRIVATE", () => {
  test("true in any case allows every internal host; a list is compared in lower case, as host names are", () => {
    const c = configWith({ WEBHOOKS_ALLOW_PRIVATE: "TRUE", HTTP_TASKS_ALLOW_PRIVATE: " Internal.Corp , 127.0.0.1 ," });
    expect(c.webhooksAllowPrivate).toEqual(["*"]);
    expect(c.httpTasksAllowPrivate).toEqual(["internal.corp", "127.0.0.1"]);
    expect(configWith({ MCP_SERVERS_ALLOW_PRIVATE: "Tools.Internal" }).mcpServersAllowPrivate).toEqual([
      "tools.internal",
    ]);
  });

  test("unset, empty or false allows none", () => {
    for (const v of ["", "false", "FALSE", " "])
      expect(configWith({ HTTP_TASKS_ALLOW_PRIVATE: v }).httpTasksAllowPrivate).toEqual([]);
    expect(configWith({}).webhooksAllowPrivate).toEqual([]);
    expect(configWith({}).mcpServersAllowPrivate).toEqual([]);
  });
});
