import { z } from "@hono/zod-openapi";

/** Keys used in paths and in BPMN formKey attributes: no slashes or spaces. */
export const KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,200}$/;
const keyMessage = "must be 1-200 letters, digits or _ . : -";

const pathParam = (name: string) => z.string().openapi({ param: { name, in: "path" } });
export const ProcessParam = z.object({ processKey: pathParam("processKey") });
export const FormParams = ProcessParam.extend({ key: pathParam("key") });
export const NumParams = FormParams.extend({
  num: z.coerce
    .number()
    .int()
    .min(1)
    .openapi({ param: { name: "num", in: "path" }, type: "integer" }),
});
export const VersionIdParams = FormParams.extend({ versionId: pathParam("versionId") });

// The schema is checked by the service (object or JSON text, field types) so its 400 names the offending type.
const SchemaInput = z.any().openapi({
  description: "Form schema: an object (or a JSON string of one) with `fields` or `components`; see docs/forms.md",
  example: { fields: [{ key: "amount", type: "currency", label: "Amount", required: true }] },
});

export const CreateFormBody = z
  .object({ key: z.string().regex(KEY_PATTERN, keyMessage), name: z.string().min(1).max(200), schema: SchemaInput })
  .openapi("CreateFormRequest");
export const SaveFormBody = z
  .object({ name: z.string().min(1).max(200).optional(), schema: SchemaInput })
  .openapi("SaveFormRequest");
export const PublishBody = z.object({ versionId: z.string().min(1).optional() }).openapi("PublishFormRequest");

export const FormVersionSchema = z
  .object({
    num: z.number().int(),
    versionId: z.string(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    published: z.boolean(),
  })
  .openapi("FormVersion");
export const FormVersionWithSchema = FormVersionSchema.extend({ schema: z.any() }).openapi("FormVersionWithSchema");

export const FormSummarySchema = z
  .object({
    id: z.string(),
    processKey: z.string(),
    key: z.string(),
    name: z.string(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    latestVersionId: z.string(),
    latestVersionNum: z.number().int(),
    publishedVersionId: z.string().nullable(),
    publishedVersionNum: z.number().int().nullable(),
  })
  .openapi("FormSummary");
export const FormDetailSchema = FormSummarySchema.extend({
  schema: z.any(),
  latestVersion: FormVersionWithSchema,
  publishedVersion: FormVersionWithSchema.nullable(),
}).openapi("Form");
