import { Webhook } from "standardwebhooks";

export interface Received {
  headers: Record<string, string>;
  body: string;
  path: string;
}

/**
 * A webhook receiver on 127.0.0.1: records every request; `status` (or `answer`) decides the answer, so tests can
 * make it fail, redirect, succeed or hold its answer (an async `answer`). `verify` checks a request with the Standard Webhooks verifier.
 */
export function startWebhookReceiver() {
  const received: Received[] = [];
  let respond: (r: Received) => Response | Promise<Response> = () => new Response("ok", { status: 200 });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const r: Received = {
        headers: Object.fromEntries(req.headers),
        body: await req.text(),
        path: new URL(req.url).pathname,
      };
      received.push(r);
      return respond(r);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port,
    received,
    answer(fn: (r: Received) => Response | Promise<Response>) {
      respond = fn;
    },
    status(code: number, body = "") {
      respond = () => new Response(body, { status: code });
    },
    verify(secret: string, r: Received) {
      return new Webhook(secret).verify(r.body, r.headers) as { id: string; type: string; tenant: string; data: any };
    },
    stop: () => server.stop(true),
  };
}
export type WebhookReceiver = ReturnType<typeof startWebhookReceiver>;
