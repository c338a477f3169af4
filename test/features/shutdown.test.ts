import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { adminTokenOf, spawnServer, type SpawnedServer } from "../harness/spawned";

const started: SpawnedServer[] = [];
afterAll(() => {
  for (const s of started) {
    s.proc.kill("SIGKILL");
    rmSync(s.dataDir, { recursive: true, force: true });
  }
});

const CHUNK = new Uint8Array(64 * 1024).fill(97);
const CHUNKS = 12;

/**
 * A multipart upload whose body arrives slowly: `onInFlight` runs once the request is surely in flight (after the third
 * chunk: fetch may pull the first one before its connection is open, and a SIGTERM then would refuse the connection).
 */
function slowUpload(base: string, token: string, onInFlight: () => void) {
  const boundary = "----drain-test";
  const enc = new TextEncoder();
  const head = enc.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="entityType"\r\n\r\nGLOBAL\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="entityId"\r\n\r\nhandbook\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = enc.encode(`\r\n--${boundary}--\r\n`);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === 0) controller.enqueue(head);
      if (sent === CHUNKS) {
        controller.enqueue(tail);
        controller.close();
        return;
      }
      controller.enqueue(CHUNK);
      sent++;
      if (sent === 3) onInFlight();
      await Bun.sleep(150);
    },
  });
  return fetch(`${base}/api/a/attachments`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    body,
    // @ts-expect-error: Bun and undici need it for a streamed request body; the DOM types do not list it.
    duplex: "half",
  });
}

describe("shutdown", () => {
  test("SIGTERM: an upload in flight completes, new connections are refused, the process exits 0 and the file is kept", async () => {
    const s = await spawnServer();
    started.push(s);
    const token = await adminTokenOf(s.base, "drain");
    const answer = slowUpload(s.base, token, () => s.proc.kill("SIGTERM"));
    const res = await answer;
    expect(res.status).toBe(201);
    const stored = (await res.json()) as { size: number; id: string };
    expect(stored.size).toBe(CHUNK.length * CHUNKS);
    // The listener closed when the signal came: nothing new gets in while the upload drains.
    await expect(fetch(`${s.base}/health`)).rejects.toThrow();
    expect(await s.exited).toBe(0);
    const log = s.lines.join("\n");
    expect(log).toContain('"msg":"draining"');
    expect(log).toContain("databases checkpointed and closed");

    // Started again on the same data: the upload acknowledged during the drain is there.
    const again = await spawnServer({ dataDir: s.dataDir });
    started.push(again);
    const list = await fetch(`${again.base}/api/a/attachments?entityType=GLOBAL&entityId=handbook`, {
      headers: { authorization: `Bearer ${await adminTokenOf(again.base, "drain")}` },
    });
    expect(((await list.json()) as { id: string }[]).map((a) => a.id)).toEqual([stored.id]);
    again.proc.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  }, 60_000);

  test("`npm start` leaves no orphan: SIGTERM to npm stops the server itself", async () => {
    const s = await spawnServer({ cmd: ["npm", "start", "--silent"] });
    started.push(s);
    const pid = Number(/"pid":(\d+)/.exec(s.lines.join("\n"))?.[1]);
    expect(pid).toBeGreaterThan(0);
    s.proc.kill("SIGTERM");
    await s.exited;
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      try {
        process.kill(pid, 0);
        await Bun.sleep(100);
      } catch {
        alive = false;
      }
    }
    if (alive) process.kill(pid, "SIGKILL");
    expect(alive).toBe(false);
    await expect(fetch(`${s.base}/health`)).rejects.toThrow();
  }, 60_000);
});
