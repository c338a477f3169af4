import { jsonSchema, tool, type ToolSet } from "ai";
import type { AgentRunEnv } from "../agents/run-env";
import { InvalidOutput } from "../agents/outputs";
import { recordToolCall } from "../agents/tool-log";
import type { TenantCtx } from "../context";
import { ForbiddenError } from "../errors";
import { agentToolNamed } from "./agent-tools";
import { mayCall } from "./authorise";
import { remoteToolsOf } from "./mcp-remote";

/** Told when a tool call must end the run (the agent acted for another tenant than the routed one). */
export type OnFatalRefusal = (message: string) => void;

/**
 * Every tool an agent's run offers the model, in one place (the agent step, the playground and any loop over an
 * agent call this): the built-in tools its configuration lists (authorise.ts) and the tools of the MCP servers it
 * lists. Each call is recorded in the tool-call audit (tool name, arguments' hash, outcome, duration); a failure is
 * told to the model as the tool's result, so the run goes on, except the few that end it (InvalidOutput, a fatal
 * refusal).
 */
export async function agentToolSet(ctx: TenantCtx, env: AgentRunEnv, onFatal: OnFatalRefusal): Promise<ToolSet> {
  const set: ToolSet = {};
  for (const name of env.agent.tools) {
    const t = agentToolNamed(name);
    if (!t || !mayCall(t, { agent: env })) continue;
    set[name] = tool({
      description: t.description,
      inputSchema: t.input,
      execute: recorded(ctx, env, name, onFatal, (input) => t.run({ ctx, agent: env, input: t.input.parse(input) })),
    });
  }
  for (const r of await remoteToolsOf(ctx, env, new Set(Object.keys(set))))
    set[r.name] = tool({
      description: r.description,
      inputSchema: jsonSchema<Record<string, unknown>>(r.inputSchema),
      execute: recorded(ctx, env, r.name, onFatal, r.run),
    });
  return set;
}

/** A tool's run wrapped with its audit record and the rule of which failures are told to the model. */
function recorded(
  ctx: TenantCtx,
  env: AgentRunEnv,
  name: string,
  onFatal: OnFatalRefusal,
  run: (input: Record<string, unknown>, signal?: AbortSignal) => unknown,
) {
  // The SDK's abort of the run (a timeout, a fatal refusal) reaches the tool: an MCP call queued or under way stops.
  return async (input: Record<string, unknown>, options?: { abortSignal?: AbortSignal }) => {
    const t0 = performance.now();
    const log = (outcome: "OK" | "ERROR" | "REFUSED", detail: string | null) => {
      env.calls?.push({ tool: name, outcome, detail });
      const r = {
        instanceId: env.instanceId,
        activity: env.activity,
        agentKey: env.agent.key,
        tool: name,
        args: input,
        outcome,
        detail,
        durationMs: Math.round(performance.now() - t0),
        turn: env.turn,
        at: ctx.clock.now(),
      };
      if (env.record) env.record(r);
      else recordToolCall(ctx, r);
    };
    try {
      const result = await run(input, options?.abortSignal);
      log("OK", null);
      return result;
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (e instanceof InvalidOutput) {
        log("ERROR", msg);
        throw e;
      }
      const refused = e instanceof ForbiddenError;
      log(refused ? "REFUSED" : "ERROR", msg);
      // Acting for another tenant ends the run; other refusals (clearance) and failures are told to the model.
      if (refused && /declared tenant|routed tenant/.test(msg)) {
        onFatal(msg);
        throw e;
      }
      return { error: msg, refused };
    }
  };
}
