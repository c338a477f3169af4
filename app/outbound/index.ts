export {
  type BlockReason,
  checkDestination,
  classifyAddress,
  DestinationRefused,
  type Resolver,
  systemResolver,
} from "./address-policy";
export { type OutboundPolicy, safeFetch } from "./safe-fetch";
export { createOutboundFetch } from "./delegate-port";
export { AnswerTooLarge, readCapped } from "./read-capped";
export {
  callRemoteTool,
  listRemoteTools,
  type McpExchangeLimits,
  type McpRemote,
  McpTimeout,
  withMcpClient,
} from "./mcp-client";
