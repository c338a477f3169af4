import { z } from "@hono/zod-openapi";
import { tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin } from "../../middleware/roles";
import { PARAMETER_TYPES } from "../../../services/robots/parameters";

export const common = { tags: ["robots"], security: tenantSecurity, middleware: requireAdmin };

export const KeyParam = z.object({ key: z.string().openapi({ param: { name: "key", in: "path" } }) });

const ParameterDef = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, "letters, digits, _ . - (up to 64), not starting with a digit"),
  type: z.enum(PARAMETER_TYPES),
  required: z.boolean().default(false),
  secret: z.boolean().default(false),
});

export const RobotSchema = z
  .object({
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    parameters: z.array(ParameterDef),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Robot");

const robotFields = {
  name: z.string().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
  parameters: z.array(ParameterDef).max(100).optional(),
};
export const CreateRobotBody = z
  .object({
    key: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, "a letter, then letters, digits, _ . - (up to 64)")
      .openapi({ description: "What models name (pms:robot or camunda:topic) and runners fetch by" }),
    ...robotFields,
  })
  .openapi("CreateRobotRequest");
export const UpdateRobotBody = z.object(robotFields).openapi("UpdateRobotRequest");

export const RobotConfigSchema = z
  .object({
    key: z.string(),
    values: z.record(z.string(), z.unknown()).openapi({
      description: 'Parameter values; a secret parameter holds {"variable": "<tenant variable name>"}, never a value',
    }),
  })
  .openapi("RobotConfig");
export const PutRobotConfigBody = z
  .object({ values: z.record(z.string(), z.unknown()) })
  .openapi("PutRobotConfigRequest");
