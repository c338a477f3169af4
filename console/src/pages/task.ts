import { when } from "../format";
import { useState } from "preact/hooks";
import { api, hasRole, session } from "../api";
import type { Suggestion } from "../form/ai-suggest";
import { FormView } from "../form/form-view";
import type { Values } from "../form/model";
import { html } from "../html";
import { t } from "../i18n";
import { go, setFlash, takeFlash } from "../router";
import { Pending, useAction, useLoad } from "../use-load";
import { AttachmentsPanel } from "./attachments-panel";
import { DelegateForm } from "./task-delegate";
import { claimAction, type Task } from "./tasks";
import { type Case, CasePanel } from "./task-case";
import { type Person, Who } from "../people";

interface Detail extends Task {
  /** Whether a chat model is active: the suggestion panel shows only then. */
  aiSuggestAvailable?: boolean;
  form: { versionId: string; num: number; formKey: string; name: string; schema: unknown } | null;
}
interface Comment {
  id: string;
  userId: string | null;
  author?: Person | null;
  message: string;
  time: string;
}

function Comments({ taskId }: { taskId: string }) {
  const list = useLoad(() => api<Comment[]>("GET", `/a/tasks/${taskId}/comments`), [taskId]);
  const [text, setText] = useState("");
  const { error, run } = useAction();
  const add = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      await api("POST", `/a/tasks/${taskId}/comments`, { message: text });
      setText("");
      list.reload();
    });
  };
  return html`<section aria-labelledby="comments-h">
    <h2 id="comments-h">${t("Comments")}</h2>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    <ul class="comments">
      ${(list.data ?? []).map(
        (c) =>
          html`<li><span class="muted"><${Who} id=${c.userId} person=${c.author} none="the system" /> · ${when(c.time)}</span><p>${c.message}</p></li>`,
      )}
    </ul>
    <form onSubmit=${add}>
      ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
      <div class="field">
        <label for="comment">${t("Add a comment")}</label>
        <textarea id="comment" rows="2" value=${text} onInput=${(e: Event) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
      </div>
      <button type="submit" disabled=${text.trim() === ""}>${t("Comment")}</button>
    </form>
  </section>`;
}

/**
 * One task: its form (the version the task locked) with AI suggestions, claim/unclaim, complete, delegate, the files
 * of its instance, comments, and the way to its instance.
 */
export function TaskPage({ id }: { id: string }) {
  const [flash] = useState(takeFlash);
  const { error, run } = useAction();
  const loaded = useLoad(
    () =>
      Promise.all([
        api<Detail>("GET", `/a/tasks/${id}`),
        api<Values>("GET", `/a/tasks/${id}/variables`).catch(() => ({}) as Values),
      ]).then(async ([d, saved]) => {
        // The instance (business key, starter, data): a task's candidates and assignee take part in it.
        const c = await api<Case>("GET", `/a/instances/${d.instanceId}`).catch(() => null);
        return [d, saved, c] as const;
      }),
    [id],
  );
  if (!loaded.data) return html`<${Pending} error=${loaded.error} />`;
  const [task, saved, theCase] = loaded.data;
  const me = session()?.user.id;
  const act = (action: "claim" | "unclaim") => run(() => claimAction(task, action).then(loaded.reload));
  const complete = async (variables: Values) => {
    await api("POST", `/a/tasks/${id}/complete`, { variables });
    setFlash(t("Task “{task}” completed.", { task: task.name }));
    go("/tasks");
  };
  const open = task.state !== "COMPLETED" && task.state !== "CANCELLED";
  const mayWork =
    open &&
    (task.assignee === me ||
      (task.assignee === null && task.candidateUsers.length + task.candidateGroups.length === 0));
  const mayDelegate = open && (task.assignee === me || hasRole("MANAGER", "ADMIN"));
  const suggest = (draft: Values) => api<Suggestion[]>("POST", `/a/tasks/${id}/ai-suggest`, { draft });
  return html`<section>
    ${flash ? html`<div class="notice" role="status">${flash}</div>` : null}
    <h1>${task.name}</h1>
    <p class="muted">${task.definitionKey}${task.businessKey ? ` · ${task.businessKey}` : ""} · ${t("assigned to")} <${Who} id=${task.assignee} person=${task.assigneeUser} />${" · "}<a href=${`#/instances/${task.instanceId}`}>${t("View the instance")}</a></p>
    <dl class="facts task-facts">
      <div><dt>${t("Due")}</dt><dd>${task.dueDate ? when(task.dueDate) : t("no due date")}</dd></div>
      <div><dt>${t("Priority")}</dt><dd>${task.priority}</dd></div>
    </dl>
    ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
    <div class="actions">
      ${open && task.assignee === null ? html`<button type="button" onClick=${() => act("claim")}>${t("Claim")}</button>` : null}
      ${open && task.assignee === me ? html`<button type="button" onClick=${() => act("unclaim")}>${t("Unclaim")}</button>` : null}
    </div>
    ${!open ? html`<p>${task.state === "COMPLETED" ? t("This task is completed.") : t("This task is cancelled.")}</p>` : null}
    ${
      mayWork
        ? html`<${FormView} key=${task.assignee ?? ""} schema=${task.form?.schema ?? {}} saved=${saved} instanceId=${task.instanceId}
            submitLabel=${t("Complete")} onSubmit=${complete} suggest=${task.aiSuggestAvailable ? suggest : undefined} />`
        : open && task.assignee === null
          ? html`<p>${t("Claim the task to work on it.")}</p>`
          : open
            ? html`<p>${t("This task is assigned to")} <${Who} id=${task.assignee} person=${task.assigneeUser} />.</p>`
            : null
    }
    ${theCase ? html`<${CasePanel} c=${theCase} taskId=${id} instanceId=${task.instanceId} definitionKey=${task.definitionKey} />` : null}
    ${mayDelegate ? html`<${DelegateForm} task=${task} />` : null}
    <${AttachmentsPanel} instanceId=${task.instanceId} />
    <${Comments} taskId=${id} />
  </section>`;
}
