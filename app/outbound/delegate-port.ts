import type { OutboundFetch } from "../../engine/bpmn/delegates/types";
import { type OutboundPolicy, safeFetch } from "./safe-fetch";

/** The engine's outbound port (the BPMN http delegate) over safeFetch with the given policy. */
export function createOutboundFetch(policy: OutboundPolicy = {}): OutboundFetch {
  return (url, init) => safeFetch(url, init, policy);
}
