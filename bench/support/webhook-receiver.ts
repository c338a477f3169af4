// Child process for bench:webhooks: a receiver on 127.0.0.1 answering 204 to every POST (its own event loop and core,
// as a subscriber's server would be); GET /count answers how many it received. Prints {"port"} on its first line.
let received = 0;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    if (req.method === "GET") return Response.json({ received });
    await req.arrayBuffer();
    received++;
    return new Response(null, { status: 204 });
  },
});
console.log(JSON.stringify({ port: server.port }));
