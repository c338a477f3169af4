import type { Delegate, OutboundFetch } from "./types";

export interface HttpDelegateOptions {
  /** The way out, supplied by the host (its SSRF policy); without one the delegate refuses every call. */
  fetch?: OutboundFetch;
  timeoutMs?: number;
  maxBytes?: number;
}

const noOutbound: OutboundFetch = async () => {
  throw new Error("http delegate: no outbound fetch is configured");
};

/** What the endpoint answered, read whole. */
interface Exchange {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Calls an HTTP endpoint through the injected outbound port; bounds time and response size. The request goes out once
 * per command run (engine/once.ts); the status check and the response variables apply to each attempt's session.
 */
export function createHttpDelegate(opts: HttpDelegateOptions = {}): Delegate {
  const timeoutMs = opts.timeoutMs ?? 10_000,
    maxBytes = opts.maxBytes ?? 1_000_000,
    outbound = opts.fetch ?? noOutbound;
  /** Sends the request and reads the answer whole (within maxBytes): what the attempts of one command share. */
  async function exchange(url: URL, init: RequestInit): Promise<Exchange> {
    const res = await outbound(url.href, init);
    const reader = res.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) {
        await reader.cancel();
        throw new Error(`http delegate: response from ${url.host} exceeds ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
    const text = Buffer.concat(chunks).toString("utf8");
    return { status: res.status, contentType: res.headers.get("content-type") ?? "", text };
  }
  return {
    name: "http",
    description: "Sends an HTTP request and stores the response status and body in variables",
    parameters: [
      { name: "requestUrl", type: "string", required: true, description: "absolute http(s) URL (expressions allowed)" },
      {
        name: "requestMethod",
        type: "string",
        required: false,
        description: "GET (default), POST, PUT, PATCH, DELETE",
      },
      {
        name: "requestHeaders",
        type: "string",
        required: false,
        description: "header lines 'Name: value', one per line",
      },
      { name: "requestBody", type: "string", required: false, description: "body to send" },
      {
        name: "resultVariablePrefix",
        type: "string",
        required: false,
        description:
          "prefix of the variables <prefix>ResponseStatusCode and <prefix>ResponseBody (default: the activity id)",
      },
      {
        name: "failStatusCodes",
        type: "string",
        required: false,
        description: "comma list of status classes that fail the step, e.g. 4XX,5XX (default 5XX)",
      },
    ],
    async execute(ctx) {
      const url = new URL(String(ctx.params.requestUrl ?? ""));
      const headers = new Headers();
      for (const line of String(ctx.params.requestHeaders ?? "").split(/\r?\n/)) {
        const i = line.indexOf(":");
        if (i > 0) headers.set(line.slice(0, i).trim(), line.slice(i + 1).trim());
      }
      const method = String(ctx.params.requestMethod ?? "GET").toUpperCase();
      const body =
        ctx.params.requestBody === undefined
          ? undefined
          : typeof ctx.params.requestBody === "string"
            ? ctx.params.requestBody
            : JSON.stringify(ctx.params.requestBody);
      // Sent once per command run: an attempt computed again after a revision conflict (the instance moved while
      // the request was out) reads the first attempt's answer, or its failure, and does not repeat a POST.
      const { status, contentType, text } = await ctx.once("request", () =>
        exchange(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) }),
      );
      const prefix = String(ctx.params.resultVariablePrefix ?? ctx.activityId);
      const fail = String(ctx.params.failStatusCodes ?? "5XX")
        .split(",")
        .map((s) => s.trim().toUpperCase());
      const cls = `${String(status)[0]}XX`;
      if (fail.includes(cls) || fail.includes(String(status)))
        throw new Error(`http delegate: ${method} ${url.host}${url.pathname} answered ${status}`);
      let parsed: unknown = text;
      if (contentType.includes("json")) {
        try {
          parsed = JSON.parse(text);
        } catch {
          /* keep text */
        }
      }
      ctx.setVariable(`${prefix}ResponseStatusCode`, status);
      ctx.setVariable(`${prefix}ResponseBody`, parsed);
    },
  };
}
