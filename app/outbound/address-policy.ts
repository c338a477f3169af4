import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** Why an address may not be called; null for a public unicast address. */
export type BlockReason =
  | "loopback"
  | "private"
  | "link-local"
  | "metadata"
  | "unspecified"
  | "multicast"
  | "broadcast"
  | "reserved";

/** Cloud instance-metadata endpoints: never reachable, whatever the allow-list says (they hand out credentials). */
const METADATA = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"]);

const V4_REASONS: Record<string, BlockReason> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "private",
  private: "private",
};

const V6_REASONS: Record<string, BlockReason> = {
  unspecified: "unspecified",
  loopback: "loopback",
  linkLocal: "link-local",
  deprecatedSiteLocal: "private",
  uniqueLocal: "private",
  multicast: "multicast",
};

function classifyV4(ip: ipaddr.IPv4): BlockReason | null {
  if (METADATA.has(ip.toString())) return "metadata";
  const range = ip.range();
  if (range === "unicast") return null;
  return V4_REASONS[range] ?? "reserved";
}

function classifyV6(ip: ipaddr.IPv6): BlockReason | null {
  if (METADATA.has(ip.toString())) return "metadata";
  const range = ip.range();
  const p = ip.parts;
  const embedded = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  // IPv4-mapped, IPv4-translated, NAT64 and 6to4 addresses reach the embedded IPv4 address: judge that one.
  if (range === "ipv4Mapped" || range === "rfc6145") return classifyV4(embedded(p[6], p[7]));
  if (range === "rfc6052" && p[2] === 0) return classifyV4(embedded(p[6], p[7]));
  if (range === "6to4") return classifyV4(embedded(p[1], p[2]));
  if (range === "unicast") return null;
  return V6_REASONS[range] ?? "reserved";
}

// Classifications by address: a pure function of the text, asked once per outbound call (webhooks: thousands a second).
const classified = new Map<string, BlockReason | null>();
const CLASSIFIED_KEPT = 4096;

/** Classifies a literal address (v4, v6, IPv4-mapped v6, with or without a zone); anything unparsable is reserved. */
export function classifyAddress(address: string): BlockReason | null {
  let reason = classified.get(address);
  if (reason === undefined) {
    if (classified.size >= CLASSIFIED_KEPT) classified.clear();
    reason = classifyUncached(address);
    classified.set(address, reason);
  }
  return reason;
}

function classifyUncached(address: string): BlockReason | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, ""));
  } catch {
    return "reserved";
  }
  return ip.kind() === "ipv4" ? classifyV4(ip as ipaddr.IPv4) : classifyV6(ip as ipaddr.IPv6);
}

/** Resolves a host name to every address it has. */
export type Resolver = (host: string) => Promise<string[]>;
export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** An outbound destination the policy refuses (bad protocol, internal address, unresolvable host, too many hops). */
export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DestinationRefused";
  }
}

const isLiteral = (host: string) =>
  ipaddr.isValid(host) && (host.includes(":") || ipaddr.IPv4.isValidFourPartDecimal(host));

/**
 * Resolves `hostname` once and checks every address it resolves to. `allowedPrivate` lists host names or addresses let
 * through although internal ("*" = every internal address); metadata endpoints stay refused. Returns the checked
 * addresses, which the caller must connect to (never resolve again).
 */
export async function checkDestination(
  hostname: string,
  allowedPrivate: readonly string[],
  resolve: Resolver = systemResolver,
): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  let addresses: string[];
  try {
    // Only canonical literals skip DNS; odd spellings (0x7f.1, 2130706433) are resolved and then checked.
    addresses = isLiteral(host) ? [host] : await resolve(host);
  } catch {
    throw new DestinationRefused(`host '${host}' does not resolve`);
  }
  if (addresses.length === 0) throw new DestinationRefused(`host '${host}' does not resolve`);
  for (const ip of addresses) {
    const reason = classifyAddress(ip);
    if (!reason) continue;
    const allowed =
      reason !== "metadata" &&
      (allowedPrivate.includes("*") || allowedPrivate.includes(host) || allowedPrivate.includes(ip));
    if (!allowed)
      throw new DestinationRefused(`host '${host}' resolves to a ${reason} address: non-public address ${ip} refused`);
  }
  return addresses;
}
