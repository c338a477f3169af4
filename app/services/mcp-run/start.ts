import type { TenantCtx } from "../context";
import { getDefinition } from "../definitions/read";
import { type StartInstanceCtx, type StartRequest, startInstance } from "../instances/start-instance";
import { requireMcpPolicy } from "./policy";

/**
 * svc_run_start: POST /a/instances' operation behind the process's MCP policy. Deploying is not publishing (rule 4):
 * a published version is what starts; a definition never published starts its latest version, and the answer says so.
 */
export async function startOverMcp({
  ctx,
  input,
}: {
  ctx: StartInstanceCtx & TenantCtx<"admission">;
  input: StartRequest;
}) {
  requireMcpPolicy(ctx, input.definitionKey, "start");
  const def = getDefinition({ ctx, input: { key: input.definitionKey } });
  const started = await startInstance({ ctx, input });
  const neverPublished = def.publishedVersion === null;
  return {
    ...started,
    neverPublished,
    note: neverPublished
      ? `Definition '${def.key}' has never been published: the instance started on its latest version (${started.version})`
      : `Started the published version ${started.version} of '${def.key}'`,
  };
}
