const CMMN_10_NAMESPACE = "http://www.omg.org/spec/CMMN/20131201/MODEL";
const CMMN_11_NAMESPACE = "http://www.omg.org/spec/CMMN/20151109/MODEL";

/**
 * CMMN 1.0 names criteria by attributes (`entryCriteriaRefs`) that 1.1 replaced, and cmmn-moddle reads 1.1 only: a 1.0
 * file is refused with a message naming both namespaces instead of a parser error.
 */
export function versionRefusal(xml: string): string | null {
  if (!xml.includes(CMMN_10_NAMESPACE)) return null;
  return `The file uses the CMMN 1.0 namespace ${CMMN_10_NAMESPACE}; only CMMN 1.1 (${CMMN_11_NAMESPACE}) is supported: save the model as CMMN 1.1`;
}
