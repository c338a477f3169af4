import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

// Fair share per tenant (issue 28, part 5): expensive work is admitted per tenant, one running and one waiting here
// (ADMISSION_PER_TENANT=1, ADMISSION_QUEUE_PER_TENANT=1). Uploads whose bodies the test holds open stand for a
// tenant's long work: they occupy the tenant's slot until the test lets them finish.
let s: TestServer;
let a: { id: string; slug: string };
let b: { id: string; slug: string };
const tok: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer({ env: { ADMISSION_PER_TENANT: "1", ADMISSION_QUEUE_PER_TENANT: "1" } });
  const sa = await saToken(s);
  a = await createTenant(s, "fair-a", sa);
  b = await createTenant(s, "fair-b", sa);
  tok.a = (await userInTenant(s, a, "MANAGER", sa)).token;
  tok.b = (await userInTenant(s, b, "MANAGER", sa)).token;
});
afterAll(() => s.close());

const BOUNDARY = "fairshareboundary";
const enc = new TextEncoder();
const head = (name: string) =>
  `--${BOUNDARY}\r\ncontent-disposition: form-data; name="entityType"\r\n\r\nGLOBAL\r\n` +
  `--${BOUNDARY}\r\ncontent-disposition: form-data; name="entityId"\r\n\r\nhandbook\r\n` +
  `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\n` +
  "content-type: text/plain\r\n\r\nfirst bytes ";
const tail = `last bytes\r\n--${BOUNDARY}--\r\n`;

/** An upload whose body stays open until `finish` is called. */
function heldUpload(token: string, name: string) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(enc.encode(head(name)));
    },
  });
  const answer = s.req("POST", "/api/a/attachments", {
    token,
    body,
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
  });
  return {
    answer,
    finish() {
      controller.enqueue(enc.encode(tail));
      controller.close();
    },
  };
}
const upload = (token: string, name: string) => {
  const up = heldUpload(token, name);
  up.finish();
  return up.answer;
};
const load = (t: { id: string }) => s.platform.ports.admission.load(t.id);
async function until(check: () => boolean) {
  for (let i = 0; i < 2000 && !check(); i++) await Bun.sleep(2);
  expect(check()).toBe(true);
}
const listed = async (token: string) =>
  (
    (await (await s.req("GET", "/api/a/attachments?entityType=GLOBAL&entityId=handbook", { token })).json()) as {
      fileName: string;
    }[]
  )
    .map((x) => x.fileName)
    .sort();

describe("fair share of expensive work per tenant", () => {
  test("a tenant whose queue is full gets 429 with Retry-After while another tenant is served", async () => {
    const first = heldUpload(tok.a, "a1.txt");
    await until(() => load(a).running === 1);
    const second = heldUpload(tok.a, "a2.txt");
    await until(() => load(a).waiting === 1);

    const refused = await upload(tok.a, "a3.txt");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await expectError(refused, 429, /Too many expensive requests/);

    // Tenant B is not behind tenant A's work: its upload is stored while A's two still hold their slot and place.
    const theirs = await upload(tok.b, "b1.txt");
    expect(theirs.status).toBe(201);
    expect(load(a)).toEqual({ running: 1, waiting: 1 });

    first.finish();
    expect((await first.answer).status).toBe(201);
    second.finish();
    expect((await second.answer).status).toBe(201);
    // The refused upload wrote nothing; the admitted ones are all there.
    expect(await listed(tok.a)).toEqual(["a1.txt", "a2.txt"]);
    expect(await listed(tok.b)).toEqual(["b1.txt"]);
  });

  test("a slot freed by a tenant is taken by its waiting work, then new work is admitted again", async () => {
    await until(() => load(a).running === 0 && load(a).waiting === 0);
    const held = heldUpload(tok.a, "a4.txt");
    await until(() => load(a).running === 1);
    const waiting = upload(tok.a, "a5.txt");
    await until(() => load(a).waiting === 1);
    held.finish();
    expect((await held.answer).status).toBe(201);
    expect((await waiting).status).toBe(201);
    expect((await upload(tok.a, "a6.txt")).status).toBe(201);
    expect(await listed(tok.a)).toEqual(["a1.txt", "a2.txt", "a4.txt", "a5.txt", "a6.txt"]);
  });
});
