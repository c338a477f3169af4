import type { RuntimeKind } from "./definitions-store";
import { iso } from "./rows";

/** The columns of an instance or case row the summary shows (both tables have them under these names). */
export interface SummaryRow {
  id: string;
  business_key: string | null;
  definition_key: string;
  definition_id: string;
  version: number;
  state: string;
  start_time: number;
  end_time: number | null;
  end_reason: string | null;
  started_by: string | null;
}

/** The same columns from the record a command holds, so a command answers without reading back what it wrote. */
export const summaryRowOf = (i: {
  id: string;
  businessKey: string | null;
  definitionKey: string;
  definitionId: string;
  version: number;
  state: string;
  startTime: number;
  endTime: number | null;
  endReason: string | null;
  startedBy: string | null;
}): SummaryRow => ({
  id: i.id,
  business_key: i.businessKey,
  definition_key: i.definitionKey,
  definition_id: i.definitionId,
  version: i.version,
  state: i.state,
  start_time: i.startTime,
  end_time: i.endTime,
  end_reason: i.endReason,
  started_by: i.startedBy,
});

/** Instance and case summaries share one shape (list rows and the base of detail); `type` tells them apart. */
export function instanceSummary<K extends RuntimeKind>(
  type: K,
  r: SummaryRow,
  parentInstanceId: string | null,
  ended: boolean,
) {
  return {
    id: r.id,
    businessKey: r.business_key,
    definitionKey: r.definition_key,
    definitionId: r.definition_id,
    version: r.version,
    type,
    state: r.state,
    suspended: r.state === "SUSPENDED",
    startTime: iso(r.start_time)!,
    endTime: iso(r.end_time),
    ended,
    endReason: r.end_reason,
    startedBy: r.started_by,
    parentInstanceId,
  };
}

/** What starting a process instance or a case takes. */
export interface StartInput {
  definitionKey: string;
  businessKey?: string | null;
  variables?: Record<string, unknown>;
  startedBy?: string | null;
  channel?: string | null;
}

/** What a deployment answers: a new version per model of the file, and the warnings. */
export interface DeployResultOf<K extends RuntimeKind> {
  deploymentId: string;
  definitions: Array<{ key: string; definitionId: string; version: number; name: string; type: K }>;
  warnings: string[];
}
