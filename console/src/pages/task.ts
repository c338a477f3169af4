import { when } from "../format";
import { useState } from "preact/hooks";
import { api, hasRole, session } from "../api";
import type { Suggestion } from "../form/ai-suggest";
import { FormView } from "../form/form-view";
import type { Values } from "../form/model";
import { html } from "../html";
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
    <h2 id="comments-h">Comments</h2>
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
        <label for="comment">Add a comment</label>
        <textarea id="comment" rows="2" value=${text} onInput=${(e: Event) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
      </div>
      <button type="submit" disabled=${text.trim() === ""}>Comment</button>
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
  const task = useLoad(
    () =>
      Promise.all([
        api<Detail>("GET", `/a/tasks/${id}`),
        api<Values>("GET", `/a/tasks/${id}/variables`).catch(() => ({}) as Values),
      ]).then(async ([t, saved]) => {
        // The instance (business key, starter, data): a task's candidates and assignee take part in it.
        const c = await api<Case>("GET", `/a/instances/${t.instanceId}`).catch(() => null);
        return [t, saved, c] as const;
      }),
    [id],
  );
  if (!task.data) return html`<${Pending} error=${task.error} />`;
  const [t, saved, theCase] = task.data;
  const me = session()?.user.id;
  const act = (action: "claim" | "unclaim") => run(() => claimAction(t, action).then(task.reload));
  const complete = async (variables: Values) => {
    await api("POST", `/a/tasks/${id}/complete`, { variables });
    setFlash(`Task “${t.name}” completed.`);
    go("/tasks");
  };
  const open = t.state !== "COMPLETED" && t.state !== "CANCELLED";
  const mayWork =
    open && (t.assignee === me || (t.assignee === null && t.candidateUsers.length + t.candidateGroups.length === 0));
  const mayDelegate = open && (t.assignee === me || hasRole("MANAGER", "ADMIN"));
  const suggest = (draft: Values) => api<Suggestion[]>("POST", `/a/tasks/${id}/ai-suggest`, { draft });
  return html`<section>
    ${flash ? html`<div class="notice" role="status">${flash}</div>` : null}
    <h1>${t.name}</h1>
    <p class="muted">${t.definitionKey}${t.businessKey ? ` · ${t.businessKey}` : ""} · assigned to <${Who} id=${t.assignee} person=${t.assigneeUser} />${" · "}<a href=${`#/instances/${t.instanceId}`}>View the instance</a></p>
    <dl class="facts task-facts">
      <div><dt>Due</dt><dd>${t.dueDate ? when(t.dueDate) : "no due date"}</dd></div>
      <div><dt>Priority</dt><dd>${t.priority}</dd></div>
    </dl>
    ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
    <div class="actions">
      ${open && t.assignee === null ? html`<button type="button" onClick=${() => act("claim")}>Claim</button>` : null}
      ${open && t.assignee === me ? html`<button type="button" onClick=${() => act("unclaim")}>Unclaim</button>` : null}
    </div>
    ${!open ? html`<p>This task is ${t.state.toLowerCase()}.</p>` : null}
    ${
      mayWork
        ? html`<${FormView} key=${t.assignee ?? ""} schema=${t.form?.schema ?? {}} saved=${saved} instanceId=${t.instanceId}
            submitLabel="Complete" onSubmit=${complete} suggest=${t.aiSuggestAvailable ? suggest : undefined} />`
        : open && t.assignee === null
          ? html`<p>Claim the task to work on it.</p>`
          : open
            ? html`<p>This task is assigned to <${Who} id=${t.assignee} person=${t.assigneeUser} />.</p>`
            : null
    }
    ${theCase ? html`<${CasePanel} c=${theCase} taskId=${id} instanceId=${t.instanceId} definitionKey=${t.definitionKey} />` : null}
    ${mayDelegate ? html`<${DelegateForm} task=${t} />` : null}
    <${AttachmentsPanel} instanceId=${t.instanceId} />
    <${Comments} taskId=${id} />
  </section>`;
}
