/**
 * Which processes use a process role: the user tasks whose candidate groups name its key (`camunda:`, `flowable:` or
 * `activiti:candidateGroups`, a comma-separated list, as the engine reads it). A role of one process is used only by
 * that process; a tenant-wide role by any. Pure, so the page's reading of a diagram is tested without a browser.
 */

/** Candidate group keys named by each element of a BPMN text: element id → keys. Expressions (`${…}`) are skipped. */
export function candidateGroupsOf(xml: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of xml.matchAll(/<([\w:-]+)\s([^>]*?)\/?>/g)) {
    const attrs = m[2];
    const groups = /\b(?:camunda|flowable|activiti):candidateGroups="([^"]*)"/.exec(attrs)?.[1];
    if (!groups) continue;
    const id = /\bid="([^"]*)"/.exec(attrs)?.[1] ?? "";
    const keys = groups
      .split(",")
      .map((g) => g.trim())
      .filter((g) => g && !g.includes("${") && !g.includes("#{"));
    if (keys.length) out.set(id, keys);
  }
  return out;
}

export interface RoleUse {
  processKey: string;
  elementIds: string[];
}

/** The uses of role `key` (scoped to `processKey`, or tenant-wide when null) among processes' diagrams. */
export function usesOfRole(key: string, processKey: string | null, diagrams: Map<string, string>): RoleUse[] {
  const uses: RoleUse[] = [];
  for (const [definitionKey, xml] of diagrams) {
    if (processKey !== null && processKey !== definitionKey) continue;
    const elementIds = [...candidateGroupsOf(xml)].filter(([, keys]) => keys.includes(key)).map(([id]) => id);
    if (elementIds.length) uses.push({ processKey: definitionKey, elementIds });
  }
  return uses;
}
