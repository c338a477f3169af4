/**
 * The one rule of the three model parsers (BPMN, CMMN, DMN): a document carrying a DOCTYPE or an entity declaration
 * is refused. The XML readers do not expand entities, so such a file would otherwise be stored with `&name;` taken
 * literally (or refused by one parser and not another); no model needs a DTD.
 */
export function doctypeRefusal(xml: string): string | null {
  return /<!(DOCTYPE|ENTITY)\b/i.test(xml)
    ? "XML with a DOCTYPE or entity declarations is not accepted: remove the <!DOCTYPE ...> block and any &entity; references"
    : null;
}
