import type { TenantCtx } from "../context";
import { BadRequestError } from "../errors";
import type { KbCtx } from "./access";
import { uploadDocument } from "./documents";
import { admitted } from "../admission";

/** svc_kb_add_text's limit per call (spec, Limits: MCP text add). */
export const MAX_KB_TEXT_CHARS = 2_000_000;

/** A file name for a text document: the title's safe characters, ending in .md or .txt (the accepted formats). */
function textFileName(title: string, markdown: boolean): string {
  const base =
    title
      .replace(/[^\p{L}\p{N} ._-]+/gu, "")
      .trim()
      .slice(0, 120) || "text";
  const ext = markdown ? ".md" : ".txt";
  return base.toLowerCase().endsWith(ext) ? base : `${base}${ext}`;
}

export const addKnowledgeText = admitted(addKnowledgeTextNow);
/**
 * Adds a text to a knowledge base as a document: the upload operation of POST /a/knowledge-bases/{id}/documents
 * itself (roles, global-base rule, storage, indexing job), given the text as a one-file multipart body.
 */
async function addKnowledgeTextNow({
  ctx,
  input,
}: {
  ctx: KbCtx & TenantCtx<"admission">;
  input: { id: string; title: string; text: string; markdown?: boolean };
}) {
  if (input.text.length > MAX_KB_TEXT_CHARS) {
    throw new BadRequestError(
      `A text takes at most ${MAX_KB_TEXT_CHARS.toLocaleString("en")} characters per call (got ${input.text.length.toLocaleString("en")}); nothing was stored`,
      [{ field: "text", message: `at most ${MAX_KB_TEXT_CHARS} characters` }],
    );
  }
  const fileName = textFileName(input.title, input.markdown ?? false);
  const form = new FormData();
  form.set("file", new File([input.text], fileName, { type: input.markdown ? "text/markdown" : "text/plain" }));
  const body = new Response(form);
  // The boundary header must be read before the body: Bun fills it in only while the body is still unread.
  const contentType = body.headers.get("content-type") ?? undefined;
  const upload = { body: body.body, contentType, contentLength: undefined };
  return { ...(await uploadDocument({ ctx, input: { id: input.id, upload } })), fileName };
}
