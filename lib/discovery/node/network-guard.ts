/**
 * Which network addresses the worker may connect to on a tenant's behalf (SSRF guard).
 *
 * Pure: no DNS, no sockets. guarded-fetch.ts applies these verdicts to the address a
 * connection is actually about to use, after DNS, so a hostname cannot smuggle a
 * forbidden address past the check.
 */
import { BlockList, isIP } from "node:net";

export type AddressClass = "public" | "private" | "loopback" | "link-local" | "metadata" | "unspecified" | "multicast" | "reserved";

export type AddressRefusalCode = "TARGET_METADATA" | "TARGET_LINK_LOCAL" | "TARGET_PRIVATE" | "TARGET_LOOPBACK" | "TARGET_RESERVED";
export type AddressVerdict = { ok: true } | { ok: false; code: AddressRefusalCode; message: string };

export type UrlRefusalCode = "INVALID_URL" | "UNSUPPORTED_SCHEME" | "CREDENTIALS_IN_URL";
export type UrlVerdict = { ok: true; url: URL } | { ok: false; code: UrlRefusalCode; message: string };

export const PRIVATE_TARGETS_ENV = "TOOLWATCH_PRIVATE_TARGETS";

/**
 * The sentence that explains why a private or loopback address was refused, naming the rule and
 * its setting (TOOLWATCH_PRIVATE_TARGETS, see lib/env.ts): for messages at registration and at
 * connect or delivery time alike.
 */
export function privateTargetsRule(policy: "admins" | "none"): string {
  return policy === "admins"
    ? `Private and loopback targets are only for teams an instance administrator belongs to (${PRIVATE_TARGETS_ENV}=admins).`
    : `Private and loopback targets are disabled on this instance (${PRIVATE_TARGETS_ENV}=none).`;
}

// First match wins, so the specific entries (metadata addresses that sit inside link-local,
// CGNAT, ULA or reserved ranges) come before the ranges that contain them.
const RULES: ReadonlyArray<readonly [Exclude<AddressClass, "public">, readonly string[]]> = [
  [
    "metadata",
    [
      "169.254.169.254/32", // AWS, GCP, Azure, DigitalOcean, OpenStack… instance metadata
      "169.254.170.2/32", // AWS ECS task metadata and credentials
      "100.100.100.200/32", // Alibaba Cloud
      "192.0.0.192/32", // Oracle Cloud (legacy)
      "168.63.129.16/32", // Azure WireServer: public space, but only meaningful from inside Azure
      "fd00:ec2::254/128", // AWS IMDS over IPv6
    ],
  ],
  ["unspecified", ["0.0.0.0/8", "::/128"]],
  ["loopback", ["127.0.0.0/8", "::1/128"]],
  ["link-local", ["169.254.0.0/16", "fe80::/10"]],
  ["multicast", ["224.0.0.0/4", "ff00::/8"]],
  // 100.64/10 is carrier-grade NAT: not public, and cloud providers put internal services there.
  // fec0::/10 (deprecated site-local) and 64:ff9b:1::/48 (local-use NAT64) only reach the local site.
  ["private", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7", "fec0::/10", "64:ff9b:1::/48"]],
  [
    "reserved",
    [
      "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "192.88.99.0/24",
      "240.0.0.0/4", // includes the 255.255.255.255 broadcast address
      "::/96", // deprecated IPv4-compatible form; never routed, so ambiguous at best
      "100::/64", "2001::/23", "2001:db8::/32", "3fff::/20", "5f00::/16", // discard, Teredo/ORCHID/benchmarking, documentation, SRv6
    ],
  ],
];

const LISTS = RULES.map(([cls, cidrs]) => {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, prefix] = cidr.split("/") as [string, string];
    list.addSubnet(address, Number(prefix), isIP(address) === 6 ? "ipv6" : "ipv4");
  }
  return [cls, list] as const;
});

/** 16 bytes of an IPv6 address that isIP() has already accepted (zone id removed). */
function ipv6Bytes(ip: string): Uint8Array {
  const bytes = new Uint8Array(16);
  const lastColon = ip.lastIndexOf(":");
  const dotted = ip.slice(lastColon + 1).includes(".") ? ip.slice(lastColon + 1) : undefined;
  // A trailing dotted quad ("::ffff:1.2.3.4") stands for the last two groups.
  const text = dotted ? `${ip.slice(0, lastColon + 1)}0:0` : ip;
  const groups = (s: string) => (s ? s.split(":") : []);
  const [head = "", tail] = text.split("::");
  const all = tail === undefined ? groups(head) : [...groups(head), ...Array<string>(8 - groups(head).length - groups(tail).length).fill("0"), ...groups(tail)];
  all.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  if (dotted) bytes.set(dotted.split(".").map(Number), 12);
  return bytes;
}

/**
 * The IPv4 address an IPv6 address stands for when the network will translate it into
 * IPv4 traffic: mapped (::ffff:a.b.c.d), SIIT-translated (::ffff:0:a.b.c.d), NAT64
 * well-known prefix (64:ff9b::/96) and 6to4 (2002:AABB:CCDD::/48).
 */
function embeddedIPv4(b: Uint8Array): string | undefined {
  const zero = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  const v4 = (at: number) => Array.from(b.subarray(at, at + 4)).join(".");
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return v4(12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return v4(12);
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return undefined;
}

function classify(ip: string): { cls: AddressClass; embedded?: string } {
  const bare = ip.split("%")[0]!; // an IPv6 zone id ("fe80::1%eth0") names an interface, not an address
  const family = isIP(bare);
  if (family === 0) throw new TypeError(`Not an IP address: ${JSON.stringify(ip)}`);
  if (family === 6) {
    const bytes = ipv6Bytes(bare);
    const embedded = embeddedIPv4(bytes);
    if (embedded) return { cls: classify(embedded).cls, embedded };
    for (const [cls, list] of LISTS) if (list.check(bare, "ipv6")) return { cls };
    // Only 2000::/3 is allocated as global unicast; anything else public-looking is unassigned space.
    return { cls: (bytes[0]! & 0xe0) === 0x20 ? "public" : "reserved" };
  }
  for (const [cls, list] of LISTS) if (list.check(bare, "ipv4")) return { cls };
  return { cls: "public" };
}

/** What kind of destination an IPv4 or IPv6 address is. Throws TypeError for a non-address. */
export function classifyAddress(ip: string): AddressClass {
  return classify(ip).cls;
}

const NEVER = `This is refused whatever the configuration (${PRIVATE_TARGETS_ENV} does not change it); point the URL at the service's own address.`;
const ADVICE: Record<Exclude<AddressClass, "public">, { code: AddressRefusalCode; what: string; advice: string }> = {
  metadata: { code: "TARGET_METADATA", what: "a cloud metadata endpoint that can hand out the credentials of the machine the worker runs on", advice: NEVER },
  "link-local": { code: "TARGET_LINK_LOCAL", what: "a link-local address, where cloud and container platforms expose internal services", advice: NEVER },
  unspecified: { code: "TARGET_RESERVED", what: "an unspecified address (0.0.0.0/8 or ::), which reaches the worker's own machine", advice: NEVER },
  multicast: { code: "TARGET_RESERVED", what: "a multicast address, which no MCP server can be reached at", advice: NEVER },
  reserved: { code: "TARGET_RESERVED", what: "in a reserved or special-purpose range (documentation, benchmarking, broadcast, deprecated or unallocated)", advice: NEVER },
  private: { code: "TARGET_PRIVATE", what: "a private network address (RFC 1918, carrier-grade NAT or IPv6 unique-local)", advice: privateTargetsRule("none") },
  loopback: { code: "TARGET_LOOPBACK", what: "a loopback address (the worker's own machine)", advice: privateTargetsRule("none") },
};

/**
 * Whether the worker may connect to `ip`. Metadata, link-local, unspecified, multicast and
 * reserved addresses are always refused; private and loopback ones only when `blockPrivate`.
 * `host`, when given, is the name the address was resolved from, for the message; `privateRule`
 * the sentence that explains why private and loopback ones are refused (privateTargetsRule).
 */
export function checkAddress(ip: string, opts: { blockPrivate: boolean; host?: string; privateRule?: string }): AddressVerdict {
  const target = opts.host && opts.host !== ip ? `${opts.host} (resolved to ${ip})` : ip;
  let result: { cls: AddressClass; embedded?: string };
  try {
    result = classify(ip);
  } catch {
    return { ok: false, code: "TARGET_RESERVED", message: `Refused to connect to ${target}: it is not an IP address.` };
  }
  const { cls, embedded } = result;
  if (cls === "public") return { ok: true };
  if ((cls === "private" || cls === "loopback") && !opts.blockPrivate) return { ok: true };
  const { code, what } = ADVICE[cls];
  const advice = (cls === "private" || cls === "loopback") && opts.privateRule ? opts.privateRule : ADVICE[cls].advice;
  const is = embedded ? `it embeds the IPv4 address ${embedded}, which is` : "it is";
  return { ok: false, code, message: `Refused to connect to ${target}: ${is} ${what}. ${advice}` };
}

/**
 * Whether a tenant-supplied server URL is acceptable before any connection is tried. Messages
 * never repeat the URL itself: its query or user-info may carry a secret.
 */
export function checkUrl(url: string): UrlVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, code: "INVALID_URL", message: "The server URL is not a valid absolute URL (expected something like https://mcp.example.com/mcp)." };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { ok: false, code: "UNSUPPORTED_SCHEME", message: `The server URL uses the "${parsed.protocol.slice(0, -1)}" scheme; only http and https are supported.` };
  }
  if (parsed.username || parsed.password) {
    return {
      ok: false,
      code: "CREDENTIALS_IN_URL",
      message: `The server URL for ${parsed.host} contains a user name or password; remove it and configure credentials as a request header (e.g. Authorization) instead.`,
    };
  }
  return { ok: true, url: parsed };
}
