import type { Database } from "bun:sqlite";
import { readSnapshot } from "../../../db/read-snapshot";
import type { CaseDefinition, LoadedCase } from "../../../engine/cmmn";
import type { CaseModel } from "../../../engine/model/cmmn";
import type { DefinitionsStore } from "../kernel/definitions-store";
import { createCasePersister } from "./persist";
import { toCase, toItem, type CaseInstanceRow, type PlanItemRow } from "./rows";

/** Reads cases and definitions for the engine and writes a command's changes (the caller holds the transaction). */
export function createCaseStore(db: Database, definitions: DefinitionsStore) {
  const q = {
    inst: db.query<CaseInstanceRow, [string, string]>("SELECT * FROM case_instances WHERE id = ? AND tenant_id = ?"),
    // +tenant_id: the primary key (case_instance_id, id) drives, the tenant is checked on the rows it finds
    items: db.query<PlanItemRow, [string, string]>(
      "SELECT * FROM case_plan_items WHERE case_instance_id = ? AND +tenant_id = ? ORDER BY seq",
    ),
  };
  const loadDefinition = (id: string): CaseDefinition | null => definitions.definition<CaseModel>(id, "CMMN");

  return {
    loadDefinition,
    startableDefinition: (tenantId: string, key: string): CaseDefinition | null =>
      definitions.startable<CaseModel>(tenantId, key, "CMMN"),
    // The case row and its plan items in one snapshot (readSnapshot): one WAL read lock instead of two.
    loadCase: (tenantId: string, caseId: string): LoadedCase | null =>
      readSnapshot(db, () => {
        const r = q.inst.get(caseId, tenantId);
        if (!r) return null;
        const definition = loadDefinition(r.definition_id);
        if (!definition) return null;
        return {
          instance: toCase(r),
          items: q.items.all(caseId, tenantId).map(toItem),
          definition,
          isNew: false,
          baseRevision: r.revision,
          baseState: r.state as LoadedCase["baseState"],
          newItems: new Set(),
          dirtyItems: new Set(),
        };
      }),
    persist: createCasePersister(db),
  };
}
export type CaseStore = ReturnType<typeof createCaseStore>;
