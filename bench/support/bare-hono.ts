// Child process: the framework's ceiling, a bare Hono route on Bun answering a small JSON body.
import { Hono } from "hono";
const app = new Hono();
app.get("/bare", (c) => c.json({ id: "00000000-0000-0000-0000-000000000000", email: "bare@bench", firstName: "Bare" }));
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
console.log(JSON.stringify({ base: `http://127.0.0.1:${server.port}` }));
