import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Registry } from "prom-client";
import { createLineSink } from "./line-sink";
import { accessLogOf, createLogger } from "./logger";
import { createRequestHistogram } from "./request-histogram";

function capture() {
  const raw: string[] = [];
  return { raw, destination: { write: (s: string) => void raw.push(s) } };
}

describe("access log lines", () => {
  test("are pino's JSON lines, with a path of any content escaped", () => {
    const out = capture();
    const logger = createLogger({ destination: out.destination });
    const path = '/api/a/x"y\\z\n{"level":60}';
    accessLogOf(logger)({ requestId: "r-1", method: "GET", route: "/api/a/:id", path, status: 404, durationMs: 1.5 });
    expect(out.raw).toHaveLength(1);
    expect(out.raw[0].endsWith("\n")).toBe(true);
    expect(out.raw[0].trimEnd()).not.toContain("\n");
    const line = JSON.parse(out.raw[0]);
    expect(line).toMatchObject({ level: 30, requestId: "r-1", method: "GET", route: "/api/a/:id", path, status: 404 });
    expect(line.msg).toBe("request");
    expect(Number.isNaN(Date.parse(line.time))).toBe(false);
    expect("tenant" in line).toBe(false); // absent fields are left out, as pino does
  });

  test("the same line as pino writes for the same fields", () => {
    const fast = capture();
    const slow = capture();
    const fields = {
      requestId: "a",
      method: "POST",
      route: "/r",
      path: "/r",
      status: 201,
      durationMs: 2,
      tenant: "t",
      actor: "user:u",
      ip: "::1",
    };
    accessLogOf(createLogger({ destination: fast.destination }))(fields);
    createLogger({ destination: slow.destination }).info(fields, "request");
    const strip = (s: string) => ({ ...JSON.parse(s), time: undefined });
    expect(strip(fast.raw[0])).toEqual(strip(slow.raw[0]));
  });

  test("write nothing when the level is above info", () => {
    const out = capture();
    accessLogOf(createLogger({ destination: out.destination, level: "warn" }))({
      requestId: "a",
      method: "GET",
      route: "/",
      path: "/",
      status: 200,
      durationMs: 0,
    });
    expect(out.raw).toHaveLength(0);
  });
});

describe("the line sink", () => {
  test("keeps every line, whole and in order, through batches and flush", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "pms-sink-")), "log");
    const sink = createLineSink(file);
    const n = 5000; // ~ 300 KB: several 32 KiB batches written while more lines arrive
    for (let i = 0; i < n; i++) sink.write(`${JSON.stringify({ i, pad: "x".repeat(50) })}\n`);
    await new Promise<void>((r) => sink.flush(() => r()));
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(n);
    expect(lines.map((l) => JSON.parse(l).i)).toEqual([...Array(n).keys()]);
  });
});

describe("the request histogram", () => {
  test("exports cumulative buckets, sum and count per method, route and status", async () => {
    const registry = new Registry();
    const h = createRequestHistogram(registry);
    h.observe("GET", "/a", 200, 0.003);
    h.observe("GET", "/a", 200, 0.2);
    h.observe("GET", "/a", 200, 30);
    h.observe("POST", "/a", 400, 0.0005);
    const text = await registry.metrics();
    expect(text).toContain('http_request_duration_seconds_bucket{method="GET",route="/a",status="200",le="0.001"} 0');
    expect(text).toContain('http_request_duration_seconds_bucket{method="GET",route="/a",status="200",le="0.005"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{method="GET",route="/a",status="200",le="0.25"} 2');
    expect(text).toContain('http_request_duration_seconds_bucket{method="GET",route="/a",status="200",le="10"} 2');
    expect(text).toContain('http_request_duration_seconds_bucket{method="GET",route="/a",status="200",le="+Inf"} 3');
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/a",status="200"} 3');
    expect(text).toMatch(/http_request_duration_seconds_sum\{method="GET",route="\/a",status="200"\} 30\.203/);
    expect(text).toContain('http_request_duration_seconds_count{method="POST",route="/a",status="400"} 1');
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
  });
});
