import type { Context } from "hono";
import { BadRequestError } from "../services/errors";

/** Reads the text of the multipart field `field` (a file), refusing a missing or empty one with 400. */
export async function uploadedText(
  c: Context,
  field = "file",
  accept?: RegExp,
): Promise<{ name: string; text: string }> {
  const type = c.req.header("content-type") ?? "";
  if (!type.startsWith("multipart/form-data"))
    throw new BadRequestError(`Send the file as multipart/form-data in the field '${field}'`);
  const body = await c.req.parseBody();
  const file = body[field];
  if (!(file instanceof File))
    throw new BadRequestError(`Missing file field '${field}'`, [{ field, message: "required" }]);
  if (accept && !accept.test(file.name))
    throw new BadRequestError(`Unsupported file name '${file.name}'`, [{ field, message: `must match ${accept}` }]);
  const text = await file.text();
  if (!text.trim()) throw new BadRequestError(`The file '${file.name}' is empty`, [{ field, message: "empty" }]);
  return { name: file.name, text };
}

/** A multipart upload as the services stream it (never buffered here). */
export const incomingUpload = (c: Context) => ({
  body: c.req.raw.body,
  contentType: c.req.header("content-type"),
  contentLength: c.req.header("content-length"),
});
