import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { useAction } from "../../use-load";

/**
 * Loads many records at once (POST .../records/bulk, one transaction, up to 20,000): a JSON array of value objects,
 * and optionally the key field that makes a reload update the records it already holds instead of adding them again.
 */
export function CmsBulkLoad({ collectionId, onLoaded }: { collectionId: string; onLoaded(): void }) {
  const [records, setRecords] = useState("");
  const [keyField, setKeyField] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const load = (e: Event) => {
    e.preventDefault();
    setDone(null);
    return run(async () => {
      let list: unknown;
      try {
        list = JSON.parse(records);
      } catch {
        throw new Error(t('The records are not JSON: write an array such as [{"sku": "A-1"}].'));
      }
      if (!Array.isArray(list)) throw new Error(t("The records must be a JSON array of objects."));
      const r = await api<{ inserted: number; updated: number; total: number }>(
        "POST",
        `/a/cms/collections/${collectionId}/records/bulk`,
        { records: list, ...(keyField.trim() ? { keyField: keyField.trim() } : {}) },
      );
      setDone(
        t("Loaded: {inserted} added, {updated} updated ({total} records now).", {
          inserted: r.inserted,
          updated: r.updated,
          total: r.total,
        }),
      );
      onLoaded();
    });
  };
  return html`<form class="inline" onSubmit=${load} aria-label=${t("Load records")}>
    <h2>${t("Load records")}</h2>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    <div class="field"><label for="bulk-records">${t("Records (a JSON array of objects)")}</label>
      <textarea id="bulk-records" class="code" rows="4" required value=${records} onInput=${(e: Event) => setRecords(valueOf(e))}></textarea></div>
    <div class="field"><label for="bulk-key">${t("Key field (optional: a record whose value exists is updated)")}</label>
      <input id="bulk-key" maxlength="100" value=${keyField} onInput=${(e: Event) => setKeyField(valueOf(e))} /></div>
    <button type="submit" class="primary">${t("Load")}</button>
  </form>`;
}
