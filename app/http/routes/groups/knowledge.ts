import { knowledgeBasesRouter } from "../knowledge-bases";
import { aiModelsRouter } from "../ai-models";
import { adminRagConfigRouter } from "../admin-rag-config";

/** Knowledge bases, retrieval and the AI model catalogue. */
export const knowledgeRouters = () => [knowledgeBasesRouter(), aiModelsRouter(), adminRagConfigRouter()];
