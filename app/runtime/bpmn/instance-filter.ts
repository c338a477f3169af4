/** The cockpit's search of process instances (GET /a/instances with filters); every filter given narrows (AND). */
export interface InstanceFilter {
  /** running (active or suspended, the default), ended (completed or cancelled), one of those four, or all. */
  state?: "running" | "ended" | "all" | "active" | "suspended" | "completed" | "cancelled";
  definitionKey?: string;
  version?: number;
  /** Business keys starting with this text (case as written: the index is read as a range). */
  businessKey?: string;
  /** Instances holding this variable with this value, compared as text. */
  varName?: string;
  varValue?: string;
  /** Started at or after / before these instants (epoch ms). */
  startedAfter?: number;
  startedBefore?: number;
}

const STATES: Record<NonNullable<InstanceFilter["state"]>, string> = {
  running: "i.state IN ('ACTIVE','SUSPENDED')",
  ended: "i.state IN ('COMPLETED','CANCELLED')",
  all: "1=1",
  active: "i.state = 'ACTIVE'",
  suspended: "i.state = 'SUSPENDED'",
  completed: "i.state = 'COMPLETED'",
  cancelled: "i.state = 'CANCELLED'",
};

/**
 * The WHERE clause over `process_instances i` and its parameters, and the order: ended instances most recently
 * ended first (the history), the others newest started first. A business key prefix is a range over
 * process_instances_business_key_idx; a variable comes from variables_search_idx, as GET /a/instances/search.
 */
export function instanceWhere(tenantId: string, f: InstanceFilter) {
  const parts = [STATES[f.state ?? "running"]];
  const params: (string | number)[] = [];
  const add = (sql: string, ...p: (string | number)[]) => {
    parts.push(sql);
    params.push(...p);
  };
  if (f.definitionKey) add("i.definition_key = ?", f.definitionKey);
  if (f.version !== undefined) add("i.version = ?", f.version);
  if (f.businessKey) add("i.business_key >= ? AND i.business_key < ?", f.businessKey, `${f.businessKey}\u{10FFFF}`);
  if (f.varName !== undefined)
    add(
      "i.id IN (SELECT x.instance_id FROM variables x WHERE x.tenant_id = ? AND x.name = ? AND x.text_value = ?)",
      tenantId,
      f.varName,
      f.varValue ?? "",
    );
  if (f.startedAfter !== undefined) add("i.start_time >= ?", f.startedAfter);
  if (f.startedBefore !== undefined) add("i.start_time < ?", f.startedBefore);
  const ended = f.state === "ended" || f.state === "completed" || f.state === "cancelled";
  return { where: parts.join(" AND "), params, order: ended ? "i.end_time DESC" : "i.start_time DESC" };
}
