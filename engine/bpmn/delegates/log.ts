import type { Delegate } from "./types";

/** Writes a message (and optionally the variables) to the engine logger; handy as a placeholder step. */
export const logDelegate: Delegate = {
  name: "log",
  description: "Logs a message through the service logger",
  parameters: [
    { name: "message", type: "string", required: false, description: "text to log (expressions allowed)" },
    { name: "level", type: "string", required: false, description: "info (default), warn or error" },
  ],
  execute(ctx) {
    ctx.log(String(ctx.params.message ?? `activity ${ctx.activityId} reached`), {
      instanceId: ctx.instanceId,
      level: ctx.params.level ?? "info",
    });
  },
};
