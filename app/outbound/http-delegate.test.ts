import { describe, expect, test } from "bun:test";
import { fakeDelegateContext as ctx } from "../../test/fixtures/bpmn/delegate-context";
import { createDelegateRegistry } from "../../engine/bpmn/delegates/registry";
import { commandMemo } from "../../engine/once";
import { classifyAddress } from "./address-policy";
import { createOutboundFetch } from "./delegate-port";

describe("the BPMN http delegate over the outbound policy", () => {
  test("the SSRF guard classifies loopback, private, link-local and unique-local addresses as non-public", () => {
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
    ])
      expect([ip, classifyAddress(ip) !== null]).toEqual([ip, true]);
    for (const ip of ["8.8.8.8", "1.1.1.1", "2606:4700::1111"])
      expect([ip, classifyAddress(ip) !== null]).toEqual([ip, false]);
  });

  test("http refuses loopback and private targets unless allowed, and stores status and body", async () => {
    const http = createDelegateRegistry({ http: { fetch: createOutboundFetch() } }).get("http")!;
    await expect(Promise.resolve(http.execute(ctx({ requestUrl: "http://127.0.0.1:1/x" })))).rejects.toThrow(
      /non-public address 127.0.0.1/,
    );
    await expect(
      Promise.resolve(http.execute(ctx({ requestUrl: "http://169.254.169.254/latest/meta-data" }))),
    ).rejects.toThrow(/non-public/);
    await expect(Promise.resolve(http.execute(ctx({ requestUrl: "file:///etc/passwd" })))).rejects.toThrow(
      /refuses protocol/,
    );
    const server = Bun.serve({ port: 0, fetch: () => Response.json({ ok: 1 }) });
    try {
      const allowed = createDelegateRegistry({ http: { fetch: createOutboundFetch({ allowedPrivate: ["*"] }) } }).get(
        "http",
      )!;
      const vars: Record<string, unknown> = {};
      await allowed.execute(
        ctx({ requestUrl: `http://127.0.0.1:${server.port}/x`, resultVariablePrefix: "api" }, vars),
      );
      expect(vars).toEqual({ apiResponseStatusCode: 200, apiResponseBody: { ok: 1 } });
      const capped = createDelegateRegistry({
        http: { fetch: createOutboundFetch({ allowedPrivate: ["*"] }), maxBytes: 3 },
      }).get("http")!;
      await expect(
        Promise.resolve(capped.execute(ctx({ requestUrl: `http://127.0.0.1:${server.port}/x` }))),
      ).rejects.toThrow(/exceeds 3 bytes/);
    } finally {
      server.stop(true);
    }
  });

  test("the attempts of one command run send the request once (its answer or its failure); a new run sends again", async () => {
    let hits = 0;
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        hits++;
        return new URL(req.url).pathname === "/down" ? new Response("", { status: 502 }) : Response.json({ n: hits });
      },
    });
    try {
      const http = createDelegateRegistry({
        http: { fetch: createOutboundFetch({ allowedPrivate: ["127.0.0.1"] }) },
      }).get("http")!;
      const params = {
        requestUrl: `http://127.0.0.1:${server.port}/x`,
        requestMethod: "POST",
        resultVariablePrefix: "api",
      };
      const memo = commandMemo();
      const first: Record<string, unknown> = {};
      const second: Record<string, unknown> = {};
      await http.execute({ ...ctx(params, first), once: memo.attempt() });
      await http.execute({ ...ctx(params, second), once: memo.attempt() });
      expect(hits).toBe(1);
      // each attempt sets the answer in its own variables (only the committing attempt's are written)
      expect(first).toEqual({ apiResponseStatusCode: 200, apiResponseBody: { n: 1 } });
      expect(second).toEqual(first);
      await http.execute({ ...ctx(params, {}), once: commandMemo().attempt() });
      expect(hits).toBe(2);
      const down = { ...params, requestUrl: `http://127.0.0.1:${server.port}/down` };
      const failing = commandMemo();
      for (let i = 0; i < 2; i++)
        await expect(Promise.resolve(http.execute({ ...ctx(down, {}), once: failing.attempt() }))).rejects.toThrow(
          /answered 502/,
        );
      expect(hits).toBe(3);
    } finally {
      server.stop(true);
    }
  });
});
