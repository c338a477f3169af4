import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { expectError } from "../harness/fixtures";
import { type AgentWorld, createAgent, startAgentWorld } from "../harness/agents";
import { migrationsFolder, runMigrations } from "../../db/migrate";
import { reportCappedAgents } from "../../app/services/agents/clearance-cap";

// Issue 29 point 4: nobody gives an agent more CMS clearance than they hold (rule 3, as for collections).
let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld();
});
afterAll(() => w.stop());

const body = (key: string, cmsClearance?: string) => ({
  key,
  name: key,
  modelId: "fake-chat",
  instructions: `agent ${key}`,
  tools: ["cms_query"],
  ...(cmsClearance ? { cmsClearance } : {}),
});
const post = (token: string, json: Record<string, unknown>) => w.s.req("POST", "/api/a/agents", { token, json });
const put = (token: string, key: string, json: Record<string, unknown>) =>
  w.s.req("PUT", `/api/a/agents/${key}`, { token, json });
const clearanceOf = async (key: string) =>
  ((await (await w.s.req("GET", `/api/a/agents/${key}`, { token: w.tok.ADMIN })).json()) as { cmsClearance: string })
    .cmsClearance;

describe("an agent's CMS clearance never exceeds its author's", () => {
  test("a Modeler (PUBLIC) cannot create a SECRET or TOP_SECRET agent: 403 and nothing stored", async () => {
    await expectError(await post(w.tok.MODELER, body("rogue", "TOP_SECRET")), 403, /clearance PUBLIC/);
    await expectError(await post(w.tok.MODELER, body("rogue", "SECRET")), 403, /clearance/);
    await expectError(await w.s.req("GET", "/api/a/agents/rogue", { token: w.tok.ADMIN }), 404);
    expect((await post(w.tok.MODELER, body("plain", "PUBLIC"))).status).toBe(201);
    expect((await post(w.tok.MODELER, body("default"))).status).toBe(201);
  });

  test("an Admin grants up to TOP_SECRET; a Modeler may not raise it, nor keep it on an update", async () => {
    expect((await post(w.tok.ADMIN, body("vault", "TOP_SECRET"))).status).toBe(201);
    await expectError(await put(w.tok.MODELER, "vault", body("vault", "TOP_SECRET")), 403);
    await expectError(await put(w.tok.MODELER, "plain", body("plain", "SECRET")), 403);
    expect(await clearanceOf("vault")).toBe("TOP_SECRET");
    expect(await clearanceOf("plain")).toBe("PUBLIC");
    // Lowering is always allowed.
    const lowered = await put(w.tok.MODELER, "vault", body("vault", "PUBLIC"));
    expect(lowered.status).toBe(200);
    expect(await clearanceOf("vault")).toBe("PUBLIC");
    expect((await put(w.tok.ADMIN, "plain", body("plain", "SECRET"))).status).toBe(200);
  });

  test("global agents are SUPER_ADMIN's, at any level; an Admin still cannot write one", async () => {
    await expectError(await post(w.tok.ADMIN, { ...body("everywhere", "PUBLIC"), isGlobal: true }), 403);
    await createAgent(w.s, w.tok.SA, { ...body("everywhere", "TOP_SECRET"), isGlobal: true });
    expect(await clearanceOf("everywhere")).toBe("TOP_SECRET");
  });

  test("bad clearance values are 400, not 403", async () => {
    await expectError(await post(w.tok.ADMIN, body("odd", "CONFIDENTIAL")), 400);
  });
});

describe("the migration that caps existing agents", () => {
  test("caps each agent to its creator's level in its tenant, keeps the rest, and the first start reports it once", () => {
    const dir = mkdtempSync(join(tmpdir(), "cap-"));
    try {
      // The platform schema as it was before the cap (every migration before 0010: later ones came after it).
      const before = join(dir, "before");
      cpSync(migrationsFolder("platform"), before, { recursive: true });
      const journalPath = join(before, "meta", "_journal.json");
      const journal = JSON.parse(readFileSync(journalPath, "utf8"));
      journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < 10);
      writeFileSync(journalPath, JSON.stringify(journal));
      const db = new Database(join(dir, "platform.sqlite"));
      runMigrations(db, "platform", before);
      const now = new Date().toISOString();
      db.run(
        "INSERT INTO tenants (id, slug, name, status, created_at, updated_at) VALUES ('t1','t1','T','ACTIVE',?,?)",
        [now, now],
      );
      const users: [string, string | null, string | null][] = [
        ["sa", "SUPER_ADMIN", null],
        ["adm", null, "ADMIN"],
        ["mgr", null, "MANAGER"],
        ["mod", null, "MODELER"],
      ];
      for (const [id, global, role] of users) {
        db.run(
          "INSERT INTO users (id, email, password_hash, first_name, global_role, active, created_at, updated_at) VALUES (?,?,?,?,?,1,?,?)",
          [id, `${id}@x.test`, "h", id, global, now, now],
        );
        if (role)
          db.run("INSERT INTO memberships (id, user_id, tenant_id, role, created_at) VALUES (?,?,?,?,?)", [
            `m-${id}`,
            id,
            "t1",
            role,
            now,
          ]);
      }
      const agents: [string, string, string | null, string][] = [
        ["by-mod", "t1", "mod", "TOP_SECRET"],
        ["by-mgr", "t1", "mgr", "TOP_SECRET"],
        ["by-mgr-ok", "t1", "mgr", "SECRET"],
        ["by-adm", "t1", "adm", "TOP_SECRET"],
        ["by-sa-global", "GLOBAL", "sa", "TOP_SECRET"],
        ["by-gone", "t1", "deleted-user", "SECRET"],
        ["by-nobody", "t1", null, "SECRET"],
        ["public", "t1", "mod", "PUBLIC"],
      ];
      for (const [key, scope, by, level] of agents)
        db.run(
          `INSERT INTO agents (id, scope, key, name, model_id, instructions, tools, knowledge_base_ids, cms_clearance,
             output_variables, max_tool_steps, timeout_ms, created_by, created_at, updated_at)
           VALUES (?, ?, ?, ?, 'm', 'i', '[]', '[]', ?, '[]', 8, 60000, ?, ?, ?)`,
          [key, scope, key, key, level, by, now, now],
        );
      runMigrations(db, "platform");
      const levels = Object.fromEntries(
        db
          .query<{ key: string; c: string; f: string | null }, []>(
            "SELECT key, cms_clearance AS c, clearance_capped_from AS f FROM agents",
          )
          .all()
          .map((r) => [r.key, [r.c, r.f]]),
      );
      expect(levels).toEqual({
        "by-mod": ["PUBLIC", "TOP_SECRET"],
        "by-mgr": ["SECRET", "TOP_SECRET"],
        "by-mgr-ok": ["SECRET", null],
        "by-adm": ["TOP_SECRET", null],
        "by-sa-global": ["TOP_SECRET", null],
        "by-gone": ["PUBLIC", "SECRET"],
        "by-nobody": ["PUBLIC", "SECRET"],
        public: ["PUBLIC", null],
      });
      const logs: string[] = [];
      reportCappedAgents(drizzle(db), (m) => logs.push(m));
      expect(logs).toHaveLength(4);
      expect(logs.find((l) => l.includes("agent by-mod"))).toContain("capped from TOP_SECRET to PUBLIC");
      reportCappedAgents(drizzle(db), (m) => logs.push(m));
      expect(logs).toHaveLength(4);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
