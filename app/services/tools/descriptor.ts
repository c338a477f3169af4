import { z } from "zod";
import type { AgentRunEnv } from "../agents/run-env";
import type { TenantCtx } from "../context";

/**
 * Who a tool is offered to. `mcp`: the MCP server's tools (tenant Admin or SUPER_ADMIN, rule 6). `agent`: the tools an
 * agent may be given in its configuration (an AI agent step, its playground). Who may call what is decided in one
 * place, `authorise.ts`.
 */
export type ToolSurface = "mcp" | "agent";

/**
 * One tool, written once as a descriptor over a service operation (DESIGN.md, Tools): the same operation a REST route
 * calls, with the same validation and error messages; only the surface (MCP, an agent's tool calling) differs.
 */
export interface ToolDescriptor<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  surface: ToolSurface;
  input: I;
  /** The shape of the answer (an object: lists are wrapped as `{ items }`); MCP's structuredContent. */
  output: O;
  readOnly: boolean;
  destructive: boolean;
  /** Declared only where a repeated call with the same input changes nothing more. */
  idempotent?: boolean;
  /** `agent` is the run of the agent calling it (agent tools only: its clearance, its step, its outputs). */
  run(call: { ctx: TenantCtx; input: z.output<I>; agent?: AgentRunEnv }): Promise<z.input<O>> | z.input<O>;
  /** The short text shown beside the structured result. */
  summary(out: z.input<O>): string;
}

/** Declares an MCP tool with its input and output types tied to its schemas. */
export const tool = <I extends z.ZodObject, O extends z.ZodObject>(
  d: Omit<ToolDescriptor<I, O>, "surface">,
): ToolDescriptor => ({ ...d, surface: "mcp" }) as unknown as ToolDescriptor;

/** Declares an agent tool: its run always has the agent's run (`agent`). */
export const agentTool = <I extends z.ZodObject, O extends z.ZodObject>(
  d: Omit<ToolDescriptor<I, O>, "surface" | "run"> & {
    run(call: { ctx: TenantCtx; input: z.output<I>; agent: AgentRunEnv }): Promise<z.input<O>> | z.input<O>;
  },
): ToolDescriptor =>
  ({
    ...d,
    surface: "agent",
    run: (call: { ctx: TenantCtx; input: z.output<I>; agent?: AgentRunEnv }) => {
      if (!call.agent) throw new Error(`tool ${d.name} runs only inside an agent's run`);
      return d.run({ ...call, agent: call.agent });
    },
  }) as unknown as ToolDescriptor;

/** A list answer: MCP's structured content is an object, so the rows go under `items`. */
export const listOf = <T extends z.ZodType>(row: T) => z.object({ items: z.array(row) });
