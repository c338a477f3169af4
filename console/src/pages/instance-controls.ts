import { api } from "../api";
import { Alert } from "../controls";
import { html } from "../html";
import { t } from "../i18n";
import { useAction } from "../use-load";

interface Target {
  id: string;
  businessKey: string | null;
  type: "BPMN" | "CMMN";
  ended: boolean;
  suspended: boolean;
}

/**
 * A Manager's controls of a running instance: suspend and activate (processes only, as the API allows) and cancel,
 * each confirmed first, since a cancelled instance cannot be resumed.
 */
export function InstanceControls({ d, onDone }: { d: Target; onDone(message: string): void }) {
  const { error, run } = useAction();
  if (d.ended) return null;
  const label = d.businessKey ?? d.id;
  const act = (question: string, method: string, path: string, done: string) => {
    if (!confirm(question)) return;
    return run(() => api(method, path).then(() => onDone(done)));
  };
  return html`<div class="actions instance-controls">
    <${Alert} error=${error} />
    ${
      d.type === "BPMN" && !d.suspended
        ? html`<button type="button" onClick=${() =>
            act(
              t(
                "Suspend {instance}? Its jobs and timers stop and its tasks cannot be completed until it is activated.",
                {
                  instance: label,
                },
              ),
              "PATCH",
              `/a/instances/${d.id}/suspend`,
              t("{instance} suspended.", { instance: label }),
            )}>${t("Suspend")}</button>`
        : null
    }
    ${
      d.type === "BPMN" && d.suspended
        ? html`<button type="button" onClick=${() =>
            act(
              t("Activate {instance}?", { instance: label }),
              "PATCH",
              `/a/instances/${d.id}/activate`,
              t("{instance} activated.", { instance: label }),
            )}>${t("Activate")}</button>`
        : null
    }
    <button type="button" class="danger" onClick=${() =>
      act(
        t("Cancel {instance}? Its open tasks are withdrawn and it cannot be resumed.", { instance: label }),
        "DELETE",
        `/a/instances/${d.id}`,
        t("{instance} cancelled.", { instance: label }),
      )}>${t("Cancel the instance")}</button>
  </div>`;
}
