import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { ServiceContext } from "@/lib/context";
import { privateTargetsPolicy, type PrivateTargetsPolicy } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { checkAddress, privateTargetsRule } from "@/lib/discovery/node/network-guard";
import { teamMayUsePrivateTargets } from "./private-targets";

// The check when a URL is saved (MCP server or webhook): the literal address, or every address
// its host name resolves to right now, judged as the worker's guard will judge it at connect time,
// with the team's right to private targets. A name that does not resolve yet is accepted: the
// worker's guard decides on the address it really connects to (a refusal there is recorded on the
// server or delivery, never a body from the target).

const DNS_TIMEOUT_MS = 3_000;

export type TargetRefusal = { code: "FORBIDDEN" | "INVALID_INPUT"; message: string };

/** Addresses `host` resolves to; [] when it does not resolve (or not within DNS_TIMEOUT_MS). */
async function resolveHost(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => (timer = setTimeout(() => resolve([]), DNS_TIMEOUT_MS)));
  try {
    const found = lookup(host, { all: true, verbatim: true }).then((rows) => rows.map((r) => r.address), () => []);
    return await Promise.race([found, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why `url` may not be used by a team with (or without) the right to private targets, or null.
 * Private and loopback refusals are 403 FORBIDDEN (the rule, not the input, is the problem);
 * metadata, link-local and reserved addresses 400 INVALID_INPUT (never allowed).
 */
export async function targetRefusal(
  url: string,
  opts: { privateAllowed: boolean; policy: PrivateTargetsPolicy; field: string; resolve?: (host: string) => Promise<string[]> },
): Promise<TargetRefusal | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null; // the input schema reports malformed URLs
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = isIP(host) ? [host] : await (opts.resolve ?? resolveHost)(host);
  const privateRule = privateTargetsRule(opts.policy === "none" ? "none" : "admins");
  for (const address of addresses) {
    const verdict = checkAddress(address, { blockPrivate: !opts.privateAllowed, host, privateRule });
    if (verdict.ok) continue;
    const policyRefusal = verdict.code === "TARGET_PRIVATE" || verdict.code === "TARGET_LOOPBACK";
    return { code: policyRefusal ? "FORBIDDEN" : "INVALID_INPUT", message: `${opts.field}: ${verdict.message}` };
  }
  return null;
}

/** Throws the refusal of targetRefusal() for the caller's team as an AppError. */
export async function assertTargetAllowed(ctx: ServiceContext, url: string, field = "url", policy: PrivateTargetsPolicy = privateTargetsPolicy()): Promise<void> {
  const refusal = await targetRefusal(url, { privateAllowed: await teamMayUsePrivateTargets(ctx, policy), policy, field });
  if (refusal) throw new AppError(refusal.code, refusal.message, { fields: { [field]: refusal.message.slice(field.length + 2) } });
}

/** For a batch: the refusal of each URL (same order), judging the team's right once and each host name once. */
export async function targetRefusals(ctx: ServiceContext, urls: readonly (string | undefined)[], field = "url", policy: PrivateTargetsPolicy = privateTargetsPolicy()): Promise<(TargetRefusal | null)[]> {
  const privateAllowed = await teamMayUsePrivateTargets(ctx, policy);
  const hosts = new Map<string, Promise<string[]>>();
  const resolve = (host: string) => {
    if (!hosts.has(host)) hosts.set(host, resolveHost(host));
    return hosts.get(host)!;
  };
  return Promise.all(urls.map((url) => (url === undefined ? null : targetRefusal(url, { privateAllowed, policy, field, resolve }))));
}
