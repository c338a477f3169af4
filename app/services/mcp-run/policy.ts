import type { McpPolicy } from "../../runtime/bpmn";
import type { TenantCtx } from "../context";
import { ForbiddenError } from "../errors";
import { listDefinitions } from "../definitions/read";

export type McpPolicyCtx = TenantCtx<"processRuntime">;

const ALLOWS: Record<"start" | "complete", McpPolicy[]> = {
  start: ["START_AND_READ", "START_AND_COMPLETE"],
  complete: ["START_AND_COMPLETE"],
};

/** The policy table of the spec: NONE refuses both, START_AND_READ allows start, START_AND_COMPLETE both. */
export function requireMcpPolicy(ctx: McpPolicyCtx, definitionKey: string, action: "start" | "complete"): McpPolicy {
  const policy = ctx.processRuntime.getDefinitionConfig(ctx.tenant.id, definitionKey).mcpPolicy;
  if (!ALLOWS[action].includes(policy)) {
    const what = action === "start" ? "starting an instance" : "completing a task";
    throw new ForbiddenError(
      `The MCP policy of process '${definitionKey}' is ${policy}: ${what} over MCP is refused (the process owner sets it in the Configuration tab)`,
    );
  }
  return policy;
}

/** svc_run_startable_list: the enabled, active definitions of the tenant with their MCP policy. */
export function startableWithPolicy({ ctx }: { ctx: McpPolicyCtx; input?: unknown }) {
  return listDefinitions({ ctx })
    .filter((d) => d.enabled && !d.suspended)
    .map((d) => {
      const mcpPolicy = ctx.processRuntime.getDefinitionConfig(ctx.tenant.id, d.key).mcpPolicy;
      return {
        key: d.key,
        name: d.name,
        type: d.type,
        publishedVersion: d.publishedVersion,
        latestVersion: d.latestVersion,
        mcpPolicy,
        canStart: ALLOWS.start.includes(mcpPolicy),
        canComplete: ALLOWS.complete.includes(mcpPolicy),
      };
    });
}
