import { z } from "zod";
import type { TenantCtx } from "../services/context";

/**
 * One MCP tool, written once as a descriptor over a service operation (DESIGN.md, Tools): the same operation the REST
 * route calls, with the same validation and error messages; only the surface differs. The agents' tool layer can
 * adapt the same descriptors.
 */
export interface ToolDescriptor<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  /** The shape of `structuredContent` (an object: lists are wrapped as `{ items }`). */
  output: O;
  readOnly: boolean;
  destructive: boolean;
  /** Declared only where a repeated call with the same input changes nothing more. */
  idempotent?: boolean;
  run(call: { ctx: TenantCtx; input: z.output<I> }): Promise<z.input<O>> | z.input<O>;
  /** The short text shown beside the structured result. */
  summary(out: z.input<O>): string;
}

/** Declares a tool with its input and output types tied to its schemas. */
export const tool = <I extends z.ZodObject, O extends z.ZodObject>(d: ToolDescriptor<I, O>): ToolDescriptor =>
  d as unknown as ToolDescriptor;

/** A list answer: MCP's structured content is an object, so the rows go under `items`. */
export const listOf = <T extends z.ZodType>(row: T) => z.object({ items: z.array(row) });
