import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TenantFileStore } from "./file-store";

const dataDir = mkdtempSync(join(tmpdir(), "file-store-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function received(store: TenantFileStore, text: string) {
  const tmp = await store.begin(1024);
  await tmp.write(new TextEncoder().encode(text));
  return tmp.finish();
}

describe("TenantFileStore.place", () => {
  test("the file is at its address, synced, before the caller writes its row; placing answers asynchronously", async () => {
    const store = new TenantFileStore(dataDir, "t1");
    const file = await received(store, "hello");
    const placing = store.place(file);
    expect(placing).toBeInstanceOf(Promise);
    const placed = await placing;
    expect(existsSync(store.pathOf(file.sha256))).toBe(true);
    expect(existsSync(file.path)).toBe(false);
    placed.release();
  });

  test("a delete of the same content while an upload's row is not yet written keeps the file", async () => {
    const store = new TenantFileStore(dataDir, "t2");
    const first = await received(store, "same content");
    (await store.place(first)).release();
    // A second upload of the same content: placed (the file exists, its temporary goes), row not yet written.
    const second = await received(store, "same content");
    const placed = await store.place(second);
    // Meanwhile the first row is deleted, and with it (no row refers to it, as far as the delete can see) the file.
    new TenantFileStore(dataDir, "t2").remove(first.sha256);
    expect(existsSync(store.pathOf(first.sha256))).toBe(true);
    placed.release();
    // Released, the file is an ordinary stored file again: a delete removes it.
    store.remove(first.sha256);
    expect(existsSync(store.pathOf(first.sha256))).toBe(false);
  });
});
