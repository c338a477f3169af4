const CMMN_10_NAMESPACE = "http://www.omg.org/spec/CMMN/20131201/MODEL";
const CMMN_11_NAMESPACE = "http://www.omg.org/spec/CMMN/20151109/MODEL";

/** CMMN 1.0 attributes cmmn-moddle (1.1 only) reports as unknown; the reader turns them into 1.1 criteria. */
export const CMMN_10_ATTRIBUTES = ["entryCriteriaRefs", "exitCriteriaRefs"];

/**
 * CMMN 1.0 files are read as 1.1, as Camunda 7 and Flowable still run them: the namespace is taken for 1.1's, and
 * the one construct 1.1 replaced — criteria named by `entryCriteriaRefs` / `exitCriteriaRefs` attributes instead of
 * `entryCriterion` / `exitCriterion` elements — is read from those attributes (see `criteriaRefs`).
 */
export function asCmmn11(xml: string): { xml: string; upgraded: boolean } {
  if (!xml.includes(CMMN_10_NAMESPACE)) return { xml, upgraded: false };
  return { xml: xml.replaceAll(CMMN_10_NAMESPACE, CMMN_11_NAMESPACE), upgraded: true };
}

/** The sentry ids a CMMN 1.0 element names in `entryCriteriaRefs` or `exitCriteriaRefs` (space-separated). */
export function criteriaRefs(el: { $attrs?: Record<string, unknown> }, which: "entry" | "exit"): string[] {
  const raw = el.$attrs?.[which === "entry" ? "entryCriteriaRefs" : "exitCriteriaRefs"];
  return typeof raw === "string" ? raw.split(/\s+/).filter(Boolean) : [];
}
