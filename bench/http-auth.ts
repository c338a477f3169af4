// bench:http — authenticated requests against the bare framework ceiling, in one run.
// Target (issue 2): an authenticated tenant route reaches ≥ 30% of the bare route's requests/s.
import { load, printTable, startChild } from "./support/load";

const bare = await startChild<{ base: string }>("bench/support/bare-hono.ts");
const svc = await startChild<{ base: string; token: string }>("bench/support/platform-server.ts");
try {
  const auth = { authorization: `Bearer ${svc.info.token}` };
  await load("warm-up", `${svc.info.base}/api/auth/me`, { headers: auth, duration: 2 });
  const rows = [
    await load("bare Hono on Bun GET /bare", `${bare.info.base}/bare`),
    await load("GET /api/auth/me (bearer)", `${svc.info.base}/api/auth/me`, { headers: auth }),
    await load("GET /api/a/api-keys (tenant route, Admin)", `${svc.info.base}/api/a/api-keys`, { headers: auth }),
  ];
  printTable(rows);
  const [b, me, tenant] = rows;
  console.log(`ratio /auth/me to bare: ${((me.rps / b.rps) * 100).toFixed(1)}%`);
  console.log(`ratio tenant route to bare: ${((tenant.rps / b.rps) * 100).toFixed(1)}%  (target ≥ 30%)`);
} finally {
  bare.proc.kill();
  svc.proc.kill();
}
