import type { RequestCtx } from "../context";
import { BadRequestError } from "../errors";

const BPMN_FILE = /\.(bpmn|bpmn20\.xml|bpmn2|xml)$/i;

/** POST /a/definitions/deploy: a BPMN file becomes a new version of each executable process in it. */
export async function deployDefinitionFile(ctx: RequestCtx, file: { name: string; text: string }) {
  if (!BPMN_FILE.test(file.name)) {
    throw new BadRequestError(`Unsupported file '${file.name}': deploy a .bpmn or .bpmn20.xml file`, [{ field: "file", message: "unsupported extension" }]);
  }
  return ctx.platform.processRuntime.deploy(ctx.tenant.id, file.text, { fileName: file.name, createdBy: ctx.actor.userId });
}
