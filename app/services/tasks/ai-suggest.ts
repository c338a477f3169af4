import { z } from "zod";
import { callerOf } from "../ai-models/caller";
import { jsonBlock } from "../ai-models/prompts";
import type { TenantCtx } from "../context";
import { ConflictError } from "../errors";
import { inputFieldsOf } from "../forms/input-fields";
import { formForVersion } from "../forms/task-forms";
import type { KbCtx } from "../knowledge-bases/access";
import { searchProcessKnowledge } from "../knowledge-bases/search";
import { type TaskAccessCtx, variablesOfTask, visibleTask } from "./access";

export type AiSuggestCtx = TaskAccessCtx & KbCtx & TenantCtx<"db" | "ai">;

export interface Suggestion {
  field: string;
  value: unknown;
  reason: string;
  /** True when the field already holds a different value (in the draft, else the saved variables). */
  conflictsWithCurrent: boolean;
}

const Answer = z.object({
  suggestions: z.array(z.object({ field: z.string(), value: z.any(), reason: z.string() })),
});

const SYSTEM = `You help a person fill in the form of a task in a business process. From the process variables, the
values already typed in the form (the draft), the reference passages and the form's fields, propose values for the
fields you have grounds for. Use only the field keys given; respect each field's type and options; leave out a field
when nothing supports a value. Give each suggestion a one-sentence reason naming its source. Answer JSON
{"suggestions": [{"field": "<key>", "value": <value>, "reason": "..."}]}.`;

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** Whether two form values differ: numbers typed as text equal the number, objects compare as JSON. */
function differs(current: unknown, proposed: unknown): boolean {
  const scalar = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";
  if (scalar(current) && scalar(proposed)) return String(current).trim() !== String(proposed).trim();
  return JSON.stringify(current) !== JSON.stringify(proposed);
}

/**
 * POST /a/tasks/{id}/ai-suggest {draft?} (Auth, the task visible to the caller, else 404): the model's values for
 * the fields of the task's form, from the instance variables, the draft, the process's linked knowledge and the form
 * schema. Only the form's fields are answered; `conflictsWithCurrent` flags a field that already holds a different
 * value in the draft or the saved variables (a client never applies those on its own). Nothing is written. 409 with
 * no active model; 402 over the quota. It reads no CMS data (so nothing above the user's own CMS level).
 */
export async function suggestTaskValues({
  ctx,
  input,
}: {
  ctx: AiSuggestCtx;
  input: { taskId: string; draft?: Record<string, unknown> };
}): Promise<Suggestion[]> {
  const task = visibleTask(ctx, input.taskId);
  if (!ctx.ai.chatModel) throw new ConflictError("No AI model is active on this installation");
  const form = task.formVersionId ? formForVersion(ctx.db, task.formVersionId) : null;
  const fields = inputFieldsOf(form?.schema);
  if (!fields.length) return [];
  const draft = input.draft ?? {};
  const saved = variablesOfTask(ctx, task);
  const query = [task.name, form?.name, ...fields.map((f) => f.label ?? f.key)].filter(Boolean).join(" ");
  const passages = (await searchProcessKnowledge(ctx, task.definitionKey, query)).slice(0, 8);
  const prompt = [
    `Task: ${task.name} (process ${task.definitionKey}${task.businessKey ? `, business key ${task.businessKey}` : ""})`,
    jsonBlock("Form fields", fields),
    jsonBlock("Process variables (saved)", saved),
    jsonBlock("Draft (typed in the form, not saved yet)", draft),
    jsonBlock(
      "Reference passages",
      passages.map((p) => ({ source: p.fileName, location: p.location, text: p.snippet })),
    ),
  ].join("\n\n");
  const answer = await ctx.ai.generateObject(callerOf(ctx, "ai-suggest"), { system: SYSTEM, prompt }, Answer);
  const keys = new Set(fields.map((f) => f.key));
  const seen = new Set<string>();
  const out: Suggestion[] = [];
  for (const s of answer.suggestions) {
    // A field the form does not have (or a second answer for one) is dropped: the model may only fill this form.
    if (!keys.has(s.field) || seen.has(s.field) || s.value === undefined) continue;
    seen.add(s.field);
    const current = s.field in draft ? draft[s.field] : saved[s.field];
    const conflictsWithCurrent = !isBlank(current) && differs(current, s.value);
    out.push({ field: s.field, value: s.value, reason: s.reason, conflictsWithCurrent });
  }
  return out;
}
