import { describe, expect, it } from "vitest";
import { checkAddress, privateTargetsRule, checkUrl, classifyAddress, type AddressClass } from "@/lib/discovery/node/network-guard";

type Verdict = "ok" | "TARGET_METADATA" | "TARGET_LINK_LOCAL" | "TARGET_PRIVATE" | "TARGET_LOOPBACK" | "TARGET_RESERVED";

// [address, class, verdict with blockPrivate on, verdict with blockPrivate off]
const TABLE: ReadonlyArray<readonly [string, AddressClass, Verdict, Verdict]> = [
  // IPv4
  ["8.8.8.8", "public", "ok", "ok"],
  ["1.1.1.1", "public", "ok", "ok"],
  ["172.32.0.1", "public", "ok", "ok"], // just past 172.16.0.0/12
  ["100.128.0.1", "public", "ok", "ok"], // just past 100.64.0.0/10
  ["10.0.0.1", "private", "TARGET_PRIVATE", "ok"],
  ["172.16.5.4", "private", "TARGET_PRIVATE", "ok"],
  ["172.31.255.255", "private", "TARGET_PRIVATE", "ok"],
  ["192.168.1.1", "private", "TARGET_PRIVATE", "ok"],
  ["100.64.0.1", "private", "TARGET_PRIVATE", "ok"], // CGNAT
  ["100.127.255.255", "private", "TARGET_PRIVATE", "ok"],
  ["127.0.0.1", "loopback", "TARGET_LOOPBACK", "ok"],
  ["127.255.255.254", "loopback", "TARGET_LOOPBACK", "ok"],
  ["0.0.0.0", "unspecified", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["0.1.2.3", "unspecified", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["169.254.169.254", "metadata", "TARGET_METADATA", "TARGET_METADATA"],
  ["169.254.170.2", "metadata", "TARGET_METADATA", "TARGET_METADATA"], // ECS task credentials
  ["100.100.100.200", "metadata", "TARGET_METADATA", "TARGET_METADATA"], // Alibaba, inside CGNAT
  ["192.0.0.192", "metadata", "TARGET_METADATA", "TARGET_METADATA"], // Oracle, inside 192.0.0.0/24
  ["168.63.129.16", "metadata", "TARGET_METADATA", "TARGET_METADATA"], // Azure WireServer
  ["169.254.1.1", "link-local", "TARGET_LINK_LOCAL", "TARGET_LINK_LOCAL"],
  ["224.0.0.1", "multicast", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["239.255.255.250", "multicast", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["240.0.0.1", "reserved", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["255.255.255.255", "reserved", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["192.0.2.10", "reserved", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["198.18.0.1", "reserved", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["203.0.113.7", "reserved", "TARGET_RESERVED", "TARGET_RESERVED"],
  // IPv6
  ["2606:4700:4700::1111", "public", "ok", "ok"],
  ["2001:4860:4860::8888", "public", "ok", "ok"],
  ["::", "unspecified", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["::1", "loopback", "TARGET_LOOPBACK", "ok"],
  ["0:0:0:0:0:0:0:1", "loopback", "TARGET_LOOPBACK", "ok"],
  ["fe80::1", "link-local", "TARGET_LINK_LOCAL", "TARGET_LINK_LOCAL"],
  ["fe80::1%eth0", "link-local", "TARGET_LINK_LOCAL", "TARGET_LINK_LOCAL"],
  ["febf:ffff::1", "link-local", "TARGET_LINK_LOCAL", "TARGET_LINK_LOCAL"],
  ["fc00::1", "private", "TARGET_PRIVATE", "ok"],
  ["fd12:3456:789a::1", "private", "TARGET_PRIVATE", "ok"],
  ["fec0::1", "private", "TARGET_PRIVATE", "ok"], // deprecated site-local
  ["fd00:ec2::254", "metadata", "TARGET_METADATA", "TARGET_METADATA"], // AWS IMDS over IPv6
  ["fd00:ec2::253", "private", "TARGET_PRIVATE", "ok"],
  ["ff02::1", "multicast", "TARGET_RESERVED", "TARGET_RESERVED"],
  // IPv6 addresses that carry an IPv4 address the network will translate to
  ["::ffff:10.0.0.1", "private", "TARGET_PRIVATE", "ok"],
  ["::ffff:127.0.0.1", "loopback", "TARGET_LOOPBACK", "ok"],
  ["::ffff:7f00:1", "loopback", "TARGET_LOOPBACK", "ok"], // same, hex form (what URL parsing produces)
  ["::ffff:169.254.169.254", "metadata", "TARGET_METADATA", "TARGET_METADATA"],
  ["::ffff:a9fe:a9fe", "metadata", "TARGET_METADATA", "TARGET_METADATA"],
  ["0:0:0:0:0:ffff:a9fe:a9fe", "metadata", "TARGET_METADATA", "TARGET_METADATA"],
  ["::ffff:8.8.8.8", "public", "ok", "ok"],
  ["::ffff:0:a9fe:a9fe", "metadata", "TARGET_METADATA", "TARGET_METADATA"], // SIIT-translated
  ["64:ff9b::a9fe:a9fe", "metadata", "TARGET_METADATA", "TARGET_METADATA"], // NAT64
  ["64:ff9b::127.0.0.1", "loopback", "TARGET_LOOPBACK", "ok"],
  ["64:ff9b::10.1.2.3", "private", "TARGET_PRIVATE", "ok"],
  ["64:ff9b::8.8.8.8", "public", "ok", "ok"],
  ["64:ff9b:1::1", "private", "TARGET_PRIVATE", "ok"], // local-use NAT64
  ["2002:a9fe:a9fe::1", "metadata", "TARGET_METADATA", "TARGET_METADATA"], // 6to4 of 169.254.169.254
  ["2002:c0a8:101::1", "private", "TARGET_PRIVATE", "ok"], // 6to4 of 192.168.1.1
  ["2002:7f00:1::", "loopback", "TARGET_LOOPBACK", "ok"], // 6to4 of 127.0.0.1
  ["2002:808:808::1", "public", "ok", "ok"], // 6to4 of 8.8.8.8
  ["::127.0.0.1", "reserved", "TARGET_RESERVED", "TARGET_RESERVED"], // deprecated IPv4-compatible
  ["2001:db8::1", "reserved", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["2001:0:4136:e378::1", "reserved", "TARGET_RESERVED", "TARGET_RESERVED"], // Teredo
  ["100::1", "reserved", "TARGET_RESERVED", "TARGET_RESERVED"],
  ["4000::1", "reserved", "TARGET_RESERVED", "TARGET_RESERVED"], // outside 2000::/3
];

describe("classifyAddress / checkAddress", () => {
  it.each(TABLE)("%s is %s (blockPrivate on: %s, off: %s)", (ip, cls, on, off) => {
    expect(classifyAddress(ip)).toBe(cls);
    const verdict = (blockPrivate: boolean): Verdict => {
      const v = checkAddress(ip, { blockPrivate });
      return v.ok ? "ok" : v.code;
    };
    expect(verdict(true)).toBe(on);
    expect(verdict(false)).toBe(off);
  });

  it("rejects what is not an IP address", () => {
    expect(() => classifyAddress("metadata.google.internal")).toThrow(TypeError);
    expect(checkAddress("metadata.google.internal", { blockPrivate: false })).toMatchObject({ ok: false, code: "TARGET_RESERVED" });
  });

  it("says what was refused, why, and whether and how it can be allowed", () => {
    const priv = checkAddress("10.1.2.3", { blockPrivate: true, host: "mcp.internal.example" });
    expect(priv.ok).toBe(false);
    if (priv.ok) return;
    expect(priv.message).toContain("mcp.internal.example (resolved to 10.1.2.3)");
    expect(priv.message).toContain("private network");
    // Which rule refused it, and its setting: the caller's sentence (the team's right), else "none".
    expect(priv.message).toContain("(TOOLWATCH_PRIVATE_TARGETS=none)");
    const byRule = checkAddress("127.0.0.1", { blockPrivate: true, privateRule: privateTargetsRule("admins") });
    expect(byRule).toMatchObject({
      ok: false,
      code: "TARGET_LOOPBACK",
      message: "Refused to connect to 127.0.0.1: it is a loopback address (the worker's own machine). Private and loopback targets are only for teams an instance administrator belongs to (TOOLWATCH_PRIVATE_TARGETS=admins).",
    });

    const meta = checkAddress("::ffff:a9fe:a9fe", { blockPrivate: false });
    expect(meta.ok).toBe(false);
    if (meta.ok) return;
    expect(meta.message).toContain("::ffff:a9fe:a9fe");
    expect(meta.message).toContain("embeds the IPv4 address 169.254.169.254");
    expect(meta.message).toContain("metadata");
    expect(meta.message).toMatch(/does not change it/);
  });
});

describe("checkUrl", () => {
  it.each([
    ["https://mcp.example.com/mcp", "ok"],
    ["http://127.0.0.1:3000/mcp?token=x", "ok"],
    ["HTTPS://MCP.EXAMPLE.COM/", "ok"],
    ["ftp://files.example.com/", "UNSUPPORTED_SCHEME"],
    ["file:///etc/passwd", "UNSUPPORTED_SCHEME"],
    ["javascript:alert(1)", "UNSUPPORTED_SCHEME"],
    ["ws://mcp.example.com/", "UNSUPPORTED_SCHEME"],
    ["not a url", "INVALID_URL"],
    ["/mcp", "INVALID_URL"],
    ["https://user:hunter2@mcp.example.com/", "CREDENTIALS_IN_URL"],
    ["https://sk-live-token@mcp.example.com/", "CREDENTIALS_IN_URL"],
  ])("%s → %s", (url, expected) => {
    const verdict = checkUrl(url);
    expect(verdict.ok ? "ok" : verdict.code).toBe(expected);
  });

  it("returns the parsed URL when acceptable", () => {
    const verdict = checkUrl("https://mcp.example.com:8443/mcp");
    expect(verdict.ok && verdict.url.port).toBe("8443");
  });

  it("never repeats credentials or query strings in its messages", () => {
    for (const url of ["https://user:hunter2@mcp.example.com/?key=SECRET", "https://exa mple.com/?key=SECRET", "gopher://x/?key=SECRET"]) {
      const verdict = checkUrl(url);
      expect(verdict.ok).toBe(false);
      if (verdict.ok) continue;
      expect(verdict.message).not.toMatch(/hunter2|SECRET/);
    }
  });
});
