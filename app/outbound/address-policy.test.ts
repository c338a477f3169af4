import { describe, expect, test } from "bun:test";
import { checkDestination, classifyAddress, DestinationRefused } from "./address-policy";

describe("the outbound address policy", () => {
  test("refuses loopback, private, link-local, CGNAT, multicast, broadcast, reserved and unspecified IPv4", () => {
    const cases: Record<string, string> = {
      "127.0.0.1": "loopback",
      "10.1.2.3": "private",
      "172.16.0.1": "private",
      "192.168.1.1": "private",
      "100.64.0.1": "private",
      "169.254.10.1": "link-local",
      "169.254.169.254": "metadata",
      "0.0.0.0": "unspecified",
      "224.0.0.1": "multicast",
      "255.255.255.255": "broadcast",
      "240.0.0.1": "reserved",
      "192.0.2.1": "reserved",
      "198.18.0.1": "reserved",
    };
    for (const [ip, reason] of Object.entries(cases)) expect([ip, classifyAddress(ip)]).toEqual([ip, reason]);
  });

  test("refuses loopback, unique-local, link-local, multicast and unspecified IPv6", () => {
    const cases: Record<string, string> = {
      "::1": "loopback",
      "::": "unspecified",
      "fe80::1": "link-local",
      "fe80::1%eth0": "link-local",
      "fd00::1": "private",
      "fc00::1": "private",
      "ff02::1": "multicast",
      "fd00:ec2::254": "metadata",
    };
    for (const [ip, reason] of Object.entries(cases)) expect([ip, classifyAddress(ip)]).toEqual([ip, reason]);
  });

  test("judges IPv4-mapped, NAT64 and 6to4 IPv6 addresses by the IPv4 address they embed", () => {
    expect(classifyAddress("::ffff:127.0.0.1")).toBe("loopback");
    expect(classifyAddress("::ffff:7f00:1")).toBe("loopback");
    expect(classifyAddress("::ffff:169.254.169.254")).toBe("metadata");
    expect(classifyAddress("::ffff:10.0.0.1")).toBe("private");
    expect(classifyAddress("64:ff9b::10.0.0.1")).toBe("private");
    expect(classifyAddress("2002:7f00:1::")).toBe("loopback");
    expect(classifyAddress("::ffff:8.8.8.8")).toBeNull();
  });

  test("lets public unicast addresses through and treats unparsable ones as reserved", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "93.184.215.14", "2606:4700::1111"]) expect(classifyAddress(ip)).toBeNull();
    expect(classifyAddress("not-an-ip")).toBe("reserved");
  });

  test("a host name resolving to a private address is refused, whichever of its addresses it is", async () => {
    const resolver = async () => ["93.184.215.14", "10.0.0.5"];
    await expect(checkDestination("rebind.example", [], resolver)).rejects.toThrow(DestinationRefused);
    await expect(checkDestination("rebind.example", [], resolver)).rejects.toThrow(
      /'rebind.example' resolves to a private address: non-public address 10.0.0.5/,
    );
    expect(await checkDestination("ok.example", [], async () => ["93.184.215.14"])).toEqual(["93.184.215.14"]);
  });

  test("odd spellings of loopback are resolved and then refused", async () => {
    await expect(checkDestination("2130706433", [], async () => ["127.0.0.1"])).rejects.toThrow(/loopback/);
  });

  test("an unresolvable host is refused", async () => {
    await expect(
      checkDestination("nowhere.invalid", [], async () => {
        throw new Error("ENOTFOUND");
      }),
    ).rejects.toThrow(/does not resolve/);
    await expect(checkDestination("empty.example", [], async () => [])).rejects.toThrow(/does not resolve/);
  });

  test("the allow-list lets named internal hosts through, never a metadata address", async () => {
    expect(await checkDestination("127.0.0.1", ["127.0.0.1"])).toEqual(["127.0.0.1"]);
    expect(await checkDestination("intranet", ["intranet"], async () => ["10.0.0.5"])).toEqual(["10.0.0.5"]);
    expect(await checkDestination("intranet", ["*"], async () => ["10.0.0.5"])).toEqual(["10.0.0.5"]);
    await expect(checkDestination("intranet", ["other"], async () => ["10.0.0.5"])).rejects.toThrow(/private/);
    await expect(checkDestination("meta.example", ["*"], async () => ["169.254.169.254"])).rejects.toThrow(/metadata/);
  });
});
