import { readdirSync, readlinkSync } from "node:fs";

/** How many file descriptors of this process point at a path starting with `prefix` (Linux: /proc/self/fd). */
export function descriptorsUnder(prefix: string): number {
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(prefix);
    } catch {
      return false; // closed between the listing and the read
    }
  }).length;
}
