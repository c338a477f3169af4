import { z } from "zod";
import { FIELD_TYPES, LAYOUT_TYPES } from "../../forms/field-types";
import { createForm, getForm, listForms, saveForm } from "../../forms/manage";
import { listVersions, publishForm } from "../../forms/versions";
import { listOf, tool } from "../descriptor";

const processKey = z.string().min(1).describe("key of the process the forms belong to");
const formKey = z.string().min(1).describe("key of the form (the BPMN formKey)");
const schemaIn = z
  .unknown()
  .describe("form schema: an object (or JSON text of one) with `fields: [{key, type, label?, required?}]`");

const Version = z.object({
  num: z.number().int(),
  versionId: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  published: z.boolean(),
});
const Summary = z.object({
  id: z.string(),
  processKey: z.string(),
  key: z.string(),
  name: z.string(),
  latestVersionNum: z.number().int(),
  publishedVersionNum: z.number().int().nullable(),
});
const Detail = Summary.extend({ schema: z.unknown(), latestVersion: z.object({ versionId: z.string() }) });

const read = { readOnly: true, destructive: false, idempotent: true };
const describeForm = (f: z.input<typeof Summary>) =>
  `Form '${f.key}' (${f.name}): latest version ${f.latestVersionNum}, published ${f.publishedVersionNum ?? "none"}`;

export const formTools = [
  tool({
    name: "svc_form_list",
    title: "List the forms of a process",
    description: "Lists the forms of a process with their latest and published version numbers.",
    input: z.object({ processKey }),
    output: listOf(Summary),
    ...read,
    run: ({ ctx, input }) => ({ items: listForms({ ctx, input }) }),
    summary: (o) => `${o.items.length} form(s)`,
  }),
  tool({
    name: "svc_form_get",
    title: "Get a form with its schema",
    description: "Returns a form with the full schema of its latest version and its published version.",
    input: z.object({ processKey, key: formKey }),
    output: Detail,
    ...read,
    run: ({ ctx, input }) => getForm({ ctx, input }),
    summary: describeForm,
  }),
  tool({
    name: "svc_form_field_types",
    title: "Form field types",
    description: "The field types a form schema accepts, and how to build a schema.",
    input: z.object({}),
    output: z.object({ fieldTypes: z.array(z.string()), layoutTypes: z.array(z.string()), howTo: z.string() }),
    ...read,
    run: () => ({
      fieldTypes: [...FIELD_TYPES],
      layoutTypes: [...LAYOUT_TYPES],
      howTo:
        'A schema is {"fields": [{"key": "amount", "type": "currency", "label": "Amount", "required": true}, ...]}. ' +
        "`key` names the process variable; `select`, `radio` and `multiselect` take `options: [{value, label}]`; " +
        "`table` takes `columns` (fields, no layout or table type); layout types hold no value. Any other type is refused.",
    }),
    summary: (o) => `${o.fieldTypes.length} field types`,
  }),
  tool({
    name: "svc_form_create",
    title: "Create a form",
    description: "Creates a form with its version 1. It is not published (svc_form_publish does that).",
    input: z.object({
      processKey,
      key: z
        .string()
        .regex(/^[A-Za-z0-9_.:-]{1,200}$/, "must be 1-200 letters, digits or _ . : -")
        .describe("new form key"),
      name: z.string().min(1).max(200),
      schema: schemaIn,
    }),
    output: Detail,
    readOnly: false,
    destructive: false,
    run: ({ ctx, input }) => createForm({ ctx, input }),
    summary: (o) => `Created ${describeForm(o)}`,
  }),
  tool({
    name: "svc_form_update",
    title: "Save a new form version",
    description: "Replaces the schema of a form as a new version. The published version does not change.",
    input: z.object({ processKey, key: formKey, name: z.string().min(1).max(200).optional(), schema: schemaIn }),
    output: Detail,
    readOnly: false,
    destructive: false,
    run: ({ ctx, input }) => saveForm({ ctx, input }),
    summary: (o) => `Saved ${describeForm(o)}`,
  }),
  tool({
    name: "svc_form_versions",
    title: "Form version history",
    description: "The versions of a form, newest first, with their author and which one is published.",
    input: z.object({ processKey, key: formKey }),
    output: listOf(Version),
    ...read,
    run: ({ ctx, input }) => ({ items: listVersions({ ctx, input }) }),
    summary: (o) => `${o.items.length} version(s)`,
  }),
  tool({
    name: "svc_form_publish",
    title: "Publish a form version",
    description: "Publishes a version of a form (the latest when versionId is absent): new tasks lock it.",
    input: z.object({ processKey, key: formKey, versionId: z.string().min(1).optional() }),
    output: Detail,
    readOnly: false,
    destructive: false,
    idempotent: true,
    run: ({ ctx, input }) => publishForm({ ctx, input }),
    summary: (o) => `Published ${describeForm(o)}`,
  }),
];
