import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, userInTenant } from "../harness/fixtures";

// Issue 17, defect 1: no request may stall the event loop; bodies, variables and nesting are bounded.
let s: TestServer;
let server: ReturnType<typeof Bun.serve>;
let token: string;
const DMN = readFileSync(join(import.meta.dir, "../fixtures/dmn/discount.dmn"), "utf8");

beforeAll(async () => {
  s = await startTestServer();
  const t = await createTenant(s, "limits");
  token = (await userInTenant(s, t, "MODELER")).token;
  const fd = new FormData();
  fd.append("file", new File([DMN], "discount.dmn"));
  expect((await s.req("POST", "/api/a/decisions", { token, body: fd })).status).toBe(201);
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, srv) => s.app.fetch(req, { server: srv }) });
});
afterAll(async () => {
  server.stop(true);
  await s.close();
});

const url = (p: string) => `http://127.0.0.1:${server.port}${p}`;
const evaluate = (body: string) =>
  fetch(url("/api/a/decisions/discount/evaluate"), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body,
  });

/**
 * Sends `heavy` and returns its status and body. How long /health waits meanwhile is a speed figure, measured by
 * `npm run bench:noisy-neighbour` (docs/performance.md), never asserted here: a test must pass on a loaded machine.
 */
async function answerOf(heavy: () => Promise<Response>) {
  const res = await heavy();
  return { status: res.status, body: await res.text() };
}

const name = (n: number, c = "x") => c.repeat(n);
const vars = (v: Record<string, unknown>) => JSON.stringify({ variables: v });

describe("heavy inputs are refused or bounded, with an error naming the limit", () => {
  const cases: [string, () => string, number, RegExp?][] = [
    // The probe's input: a 1 MiB variable name (now refused before any work by the body limit).
    ["a 1 MiB variable name", () => vars({ [name(1024 * 1024)]: 1 }), 413, /exceeds the limit of 1048576 bytes/],
    ["a 1,000,000-character variable name", () => vars({ [name(1_000_000)]: 1 }), 400, /at most 255 characters/],
    ["1001 variables", () => vars(Object.fromEntries([...Array(1001)].map((_, i) => [`v${i}`, i]))), 400, /1000/],
    // The quadratic path itself: 1000 names of 255 characters reached feelin's prefix index on every evaluation.
    [
      "1000 variables of 255-character names, inputs missing (feelin path)",
      () => vars(Object.fromEntries([...Array(1000)].map((_, i) => [`${i}`.padEnd(255, "y"), i]))),
      200,
    ],
    ["JSON nested 100,000 levels", () => `{"variables":{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`, 400],
    ["JSON nested 33 levels", () => vars({ a: JSON.parse(`${"[".repeat(32)}${"]".repeat(32)}`) }), 400, /deeper/],
    ["a 900 KiB string value", () => vars({ customerType: name(900 * 1024, "G"), amount: 5 }), 200],
  ];
  for (const [label, body, status, message] of cases) {
    test(label, async () => {
      const text = body();
      const r = await answerOf(() => evaluate(text));
      expect(r.status).toBe(status);
      if (status >= 400) {
        const err = JSON.parse(r.body);
        expect(err).toMatchObject({ status, path: "/api/a/decisions/discount/evaluate" });
        if (message) expect(JSON.stringify(err)).toMatch(message);
        expect(r.body.length).toBeLessThan(4096); // a refusal never echoes the heavy input
      }
    });
  }

  test("32 levels of nesting and 1000 variables of 255 characters pass", async () => {
    const deep = vars({ customerType: "GOLD", amount: 5, a: JSON.parse(`${"[".repeat(30)}${"]".repeat(30)}`) });
    expect((await evaluate(deep)).status).toBe(200);
  });

  test("a body over 1 MiB sent without Content-Length (chunked) is cut off with 413", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream({
      pull(ctl) {
        if (sent++ < 40) ctl.enqueue(chunk);
        else ctl.close();
      },
    });
    const res = await fetch(url("/api/a/decisions/discount/evaluate"), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: stream,
    });
    expect(res.status).toBe(413);
  });

  test("a route that needs more takes more: a model upload of 2 MiB is read (and judged on its content)", async () => {
    const fd = new FormData();
    fd.append(
      "file",
      new File([DMN.replace("</definitions>", `<!-- ${name(2 * 1024 * 1024)} --></definitions>`)], "big.dmn"),
    );
    const res = await fetch(url("/api/a/decisions"), {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: fd,
    });
    expect(res.status).toBe(201);
  });
});

describe("expression evaluation time is bounded (defect 1)", () => {
  const bomb = (key: string, feel: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="${key}-defs" name="Bomb" namespace="http://example.com/dmn">
  <decision id="${key}" name="${key}">
    <literalExpression id="${key}-le"><text>${feel}</text></literalExpression>
  </decision>
</definitions>`;
  const cases: [string, string][] = [
    ["a range of a billion elements", "count(for x in 1..1000000000 return x)"],
    ["exponential recursion", "{f: function(n) if n = 0 then 0 else f(n - 1) + f(n - 1), r: f(40)}.r"],
  ];
  for (const [i, [label, feel]] of cases.entries()) {
    test(`${label}: stopped with an error naming the limit`, async () => {
      const key = `bomb${i}`;
      const fd = new FormData();
      fd.append("file", new File([bomb(key, feel)], `${key}.dmn`));
      expect((await s.req("POST", "/api/a/decisions", { token, body: fd })).status).toBe(201);
      const r = await answerOf(() =>
        fetch(url(`/api/a/decisions/${key}/evaluate`), {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: vars({}),
        }),
      );
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body).toMatch(/evaluation-time limit of 80 ms/);
      // The message proves the 80 ms limit (engine/feel/time-limit.ts) stopped it.
    });
  }
});
