import type { TenantCtx } from "../context";
import { attachStream } from "./attach";

/**
 * svc_run_attach_text: a text becomes a document attached to a process instance, under the same rules as an ad-hoc
 * POST /a/attachments (the process's attachment policy, the size limit, instance not found across tenants).
 */
export function attachTextToInstance({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { instanceId: string; fileName: string; text: string; documentTypeId?: string };
}) {
  const fileName = /\.[A-Za-z0-9]{1,8}$/.test(input.fileName) ? input.fileName : `${input.fileName}.txt`;
  return attachStream(
    ctx,
    {
      entityType: "PROCESS_INSTANCE",
      entityId: input.instanceId,
      fileName,
      contentType: "text/plain; charset=utf-8",
      documentTypeId: input.documentTypeId ?? null,
      data: new Blob([input.text]).stream(),
    },
    "AD_HOC",
  );
}
