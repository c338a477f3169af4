import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/** Why an address may not be called from a data source; null for a public address. */
export type BlockReason = "loopback" | "private" | "link-local" | "metadata" | "unspecified" | "multicast" | "reserved";

/** Cloud instance-metadata endpoints: never reachable, whatever the tenant allows (they hand out credentials). */
const METADATA = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"]);

function v4ToInt(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}
const inV4 = (ip: string, base: string, bits: number) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (v4ToInt(ip) & mask) >>> 0 === (v4ToInt(base) & mask) >>> 0;
};

function classifyV4(ip: string): BlockReason | null {
  if (METADATA.has(ip)) return "metadata";
  if (inV4(ip, "0.0.0.0", 8)) return "unspecified";
  if (inV4(ip, "127.0.0.0", 8)) return "loopback";
  if (inV4(ip, "169.254.0.0", 16)) return "link-local";
  for (const [base, bits] of [
    ["10.0.0.0", 8],
    ["172.16.0.0", 12],
    ["192.168.0.0", 16],
    ["100.64.0.0", 10],
    ["198.18.0.0", 15],
  ] as const) {
    if (inV4(ip, base, bits)) return "private";
  }
  if (inV4(ip, "224.0.0.0", 4)) return "multicast";
  if (inV4(ip, "240.0.0.0", 4) || inV4(ip, "192.0.0.0", 24) || inV4(ip, "192.0.2.0", 24)) return "reserved";
  return null;
}

/** Expands an IPv6 address to its 8 groups (handles :: and an embedded dotted IPv4 tail). */
function v6Groups(ip: string): number[] {
  let s = ip.toLowerCase().split("%")[0];
  const dotted = s.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const n = v4ToInt(dotted[1]);
    s = `${s.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = s.split("::");
  const parse = (p: string | undefined) => (p ? p.split(":").map((g) => parseInt(g || "0", 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  return tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
}

function classifyV6(ip: string): BlockReason | null {
  const g = v6Groups(ip);
  const norm = g.map((x) => x.toString(16)).join(":");
  if (METADATA.has(ip.toLowerCase()) || norm === "fd00:ec2:0:0:0:0:0:254") return "metadata";
  if (g.every((x) => x === 0)) return "unspecified";
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return "loopback";
  const v4 = (a: number, b: number) => `${a >>> 8}.${a & 255}.${b >>> 8}.${b & 255}`;
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach the embedded IPv4 address.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return classifyV4(v4(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyV4(v4(g[6], g[7]));
  if ((g[0] & 0xfe00) === 0xfc00) return "private";
  if ((g[0] & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0] & 0xff00) === 0xff00) return "multicast";
  return null;
}

export function classifyAddress(ip: string): BlockReason | null {
  const family = isIP(ip);
  if (family === 4) return classifyV4(ip);
  if (family === 6) return classifyV6(ip);
  return "reserved";
}

export type Resolver = (host: string) => Promise<string[]>;
export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export class DestinationRefused extends Error {}

/**
 * Resolves `hostname` and checks every address it resolves to. `allowedPrivate` lists host names or addresses the
 * tenant lets through although they are internal ("*" = every internal address); metadata endpoints stay refused.
 * Returns the addresses to connect to.
 */
export async function checkDestination(
  hostname: string,
  allowedPrivate: string[],
  resolve: Resolver = systemResolver,
): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
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
    if (!allowed) throw new DestinationRefused(`host '${host}' resolves to a ${reason} address (${ip})`);
  }
  return addresses;
}
