import { knowledgeBasesRouter } from "../knowledge-bases";
import { aiModelsRouter } from "../ai-models";
import { adminRagConfigRouter } from "../admin-rag-config";
import { agentsRouter } from "../agents";
import { aiTaskFailuresRouter } from "../ai-task-failures";

/** Knowledge bases, retrieval, the AI model catalogue, agents and their failures. */
export const knowledgeRouters = () => [
  knowledgeBasesRouter(),
  aiModelsRouter(),
  adminRagConfigRouter(),
  agentsRouter(),
  aiTaskFailuresRouter(),
];
