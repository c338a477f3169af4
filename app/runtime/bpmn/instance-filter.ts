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
 * process_instances_business_key_idx; a variable's instances come from variables_search_idx and drive the read; a
 * definition's running instances come newest first from process_instances_definition_started_idx.
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
  // The variable's instances: a driver of the whole tenant's read (see createInstanceQueries' list), and a condition
  // too, for a user's read, which starts from their involvements.
  const byVariable =
    "SELECT DISTINCT x.instance_id AS id FROM variables x WHERE x.tenant_id = ? AND x.name = ? AND x.text_value = ?";
  const varParams = [tenantId, f.varName ?? "", f.varValue ?? ""];
  if (f.varName !== undefined) add(`i.id IN (${byVariable})`, ...varParams);
  if (f.startedAfter !== undefined) add("i.start_time >= ?", f.startedAfter);
  if (f.startedBefore !== undefined) add("i.start_time < ?", f.startedBefore);
  const ended = f.state === "ended" || f.state === "completed" || f.state === "cancelled";
  return {
    where: parts.join(" AND "),
    params,
    // Ties newest id first: the order an index read backwards gives, so a page streams from it even when many
    // instances share a millisecond (this list is not merged with cases, which need ties by id ascending).
    order: ended ? "i.end_time DESC, i.id DESC" : "i.start_time DESC, i.id DESC",
    driver: f.varName !== undefined ? { sql: byVariable, params: varParams } : undefined,
  };
}
