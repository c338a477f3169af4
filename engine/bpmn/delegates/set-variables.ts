import type { Delegate } from "./types";

/** Copies its parameters (except `variables`) into process variables; `variables` may hold a JSON object of more. */
export const setVariablesDelegate: Delegate = {
  name: "set-variables",
  description:
    "Sets process variables from its parameters; a `variables` parameter may hold a JSON object of name/value pairs",
  parameters: [
    {
      name: "variables",
      type: "json",
      required: false,
      description: "object of variables to set; other parameters are set by name",
    },
  ],
  execute(ctx) {
    for (const [k, v] of Object.entries(ctx.params)) {
      if (k !== "variables") {
        ctx.setVariable(k, v);
        continue;
      }
      const obj = typeof v === "string" ? JSON.parse(v) : v;
      if (obj && typeof obj === "object") for (const [n, x] of Object.entries(obj)) ctx.setVariable(n, x);
    }
  },
};
