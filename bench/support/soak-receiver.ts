// Child process of bench:soak: the webhook receiver, on its own core as a subscriber's server would be. Each delivery
// is verified with the Standard Webhooks verifier against its tenant's secret and counted by its `webhook-id`, so the
// end of the run can say whether every event arrived once, signed. POST /secrets {path: secret} registers secrets;
// GET /count answers the tally. Prints {"port"} on its first line.
import { Webhook } from "standardwebhooks";

const verifiers = new Map<string, Webhook>();
const seen = new Map<string, number>();
let received = 0;
let badSignature = 0;
let unknownPath = 0;
const byType: Record<string, number> = {};

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    if (req.method === "GET") {
      let duplicates = 0;
      for (const n of seen.values()) if (n > 1) duplicates += n - 1;
      return Response.json({ received, unique: seen.size, duplicates, badSignature, unknownPath, byType });
    }
    if (path === "/secrets") {
      for (const [p, secret] of Object.entries((await req.json()) as Record<string, string>))
        verifiers.set(p, new Webhook(secret));
      return new Response(null, { status: 204 });
    }
    const body = await req.text();
    received++;
    const verifier = verifiers.get(path);
    if (!verifier) unknownPath++;
    else {
      try {
        verifier.verify(body, Object.fromEntries(req.headers));
        const id = req.headers.get("webhook-id") ?? "";
        const n = (seen.get(id) ?? 0) + 1;
        seen.set(id, n);
        if (n === 1) {
          const type = (JSON.parse(body) as { type: string }).type;
          byType[type] = (byType[type] ?? 0) + 1;
        }
      } catch {
        badSignature++;
      }
    }
    return new Response(null, { status: 204 });
  },
});
console.log(JSON.stringify({ port: server.port }));
