import { knowledgeBasesRouter } from "../knowledge-bases";
import { aiModelsRouter } from "../ai-models";
import { adminRagConfigRouter } from "../admin-rag-config";
import { aiValidationRouter } from "../ai-validation";
import { modelerCopilotRouter } from "../modeler-copilot";

/** Knowledge bases, retrieval, the AI model catalogue, AI validation and the modeler copilot. */
export const knowledgeRouters = () => [
  knowledgeBasesRouter(),
  aiModelsRouter(),
  adminRagConfigRouter(),
  aiValidationRouter(),
  modelerCopilotRouter(),
];
