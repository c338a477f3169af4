import { knowledgeBasesRouter } from "../knowledge-bases";
import { aiModelsRouter } from "../ai-models";
import { adminRagConfigRouter } from "../admin-rag-config";
import { agentsRouter } from "../agents";
import { aiTaskFailuresRouter } from "../ai-task-failures";
import { aiValidationRouter } from "../ai-validation";
import { modelerCopilotRouter } from "../modeler-copilot";

/** Knowledge bases, retrieval, the AI model catalogue, agents and their failures, AI validation and the modeler copilot. */
export const knowledgeRouters = () => [
  knowledgeBasesRouter(),
  aiModelsRouter(),
  adminRagConfigRouter(),
  agentsRouter(),
  aiTaskFailuresRouter(),
  aiValidationRouter(),
  modelerCopilotRouter(),
];
