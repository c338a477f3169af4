import type { TenantCtx } from "../context";

export type DeployCtx = TenantCtx<"processRuntime" | "caseRuntime">;
import { BadRequestError } from "../errors";
import { admitted } from "../admission";

const BPMN_FILE = /\.(bpmn|bpmn20\.xml|bpmn2|xml)$/i;
const CMMN_FILE = /\.(cmmn|cmmn\.xml|cmmn11\.xml)$/i;
const CMMN_NAMESPACE = "http://www.omg.org/spec/CMMN/20151109/MODEL";

export const deployDefinitionFile = admitted(deployDefinitionFileNow);
/** POST /a/definitions/deploy: a BPMN file becomes a new version of each executable process, a CMMN file of each case. */
async function deployDefinitionFileNow({ ctx, input }: { ctx: DeployCtx; input: { name: string; text: string } }) {
  const file = input;
  const meta = { fileName: file.name, createdBy: ctx.actor.userId };
  if (CMMN_FILE.test(file.name) || (/\.xml$/i.test(file.name) && file.text.includes(CMMN_NAMESPACE))) {
    return ctx.caseRuntime.deploy(ctx.tenant.id, file.text, meta);
  }
  if (!BPMN_FILE.test(file.name)) {
    throw new BadRequestError(`Unsupported file '${file.name}': deploy a .bpmn, .bpmn20.xml or .cmmn file`, [
      { field: "file", message: "unsupported extension" },
    ]);
  }
  return ctx.processRuntime.deploy(ctx.tenant.id, file.text, meta);
}
