// What changed in the server's own facts (handshake) between a lock and the live server. The tools
// are compared by lib/diff; these are the lines above them. Levels are ours (the diff rules of
// docs/detection-rules.md §2 cover tools only); the reasons sit beside each rule.
import { diffText, type Level, type Segment } from "@/lib/diff";
import { canonicalJson } from "@/lib/hash/canonical-hash";
import type { LockedServer } from "./lockfile";

export const SERVER_RULES = {
  "protocol-version-changed": "WARN", // clients pinned to the old version may fail to negotiate
  "era-changed": "WARN", // initialize ↔ server/discover: older or newer clients may no longer connect
  "transport-changed": "WARN", // e.g. Streamable HTTP refused, reached only over HTTP+SSE now
  "server-name-changed": "WARN", // clients and allow-lists key on serverInfo.name
  "server-info-changed": "INFO", // version, title, icons…: expected on every release
  "capability-removed": "WARN", // a feature clients may use is gone
  "capability-added": "INFO",
  "capability-changed": "INFO", // e.g. tools.listChanged; sub-flags, not the feature
  "instructions-changed": "WARN", // model-visible text that steers the agent, like a description
} as const satisfies Record<string, Level>;

export type ServerRuleId = keyof typeof SERVER_RULES;

export type ServerChange = {
  ruleId: ServerRuleId;
  level: Level;
  /** Dotted path of the fact: protocolVersion, serverInfo.version, capabilities.tools, instructions… */
  field: string;
  before: unknown;
  after: unknown;
  /** For instructions: a word diff. */
  words?: Segment[];
};

const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

export function compareServerFacts(locked: LockedServer, live: LockedServer): ServerChange[] {
  const out: ServerChange[] = [];
  const add = (ruleId: ServerRuleId, field: string, before: unknown, after: unknown, words?: Segment[]) =>
    out.push({ ruleId, level: SERVER_RULES[ruleId], field, before: before ?? null, after: after ?? null, ...(words ? { words } : {}) });

  if (!same(locked.protocolVersion, live.protocolVersion)) add("protocol-version-changed", "protocolVersion", locked.protocolVersion, live.protocolVersion);
  if (!same(locked.era, live.era)) add("era-changed", "era", locked.era, live.era);
  if (locked.transport !== live.transport) add("transport-changed", "transport", locked.transport, live.transport);

  const infoBefore = locked.serverInfo ?? {};
  const infoAfter = live.serverInfo ?? {};
  for (const key of unionKeys(infoBefore, infoAfter)) {
    if (same(infoBefore[key], infoAfter[key])) continue;
    add(key === "name" ? "server-name-changed" : "server-info-changed", `serverInfo.${key}`, infoBefore[key], infoAfter[key]);
  }

  const capsBefore = locked.capabilities ?? {};
  const capsAfter = live.capabilities ?? {};
  for (const key of unionKeys(capsBefore, capsAfter)) {
    const [had, has] = [key in capsBefore, key in capsAfter];
    if (had && !has) add("capability-removed", `capabilities.${key}`, capsBefore[key], undefined);
    else if (!had && has) add("capability-added", `capabilities.${key}`, undefined, capsAfter[key]);
    else if (!same(capsBefore[key], capsAfter[key])) add("capability-changed", `capabilities.${key}`, capsBefore[key], capsAfter[key]);
  }

  if ((locked.instructions ?? "") !== (live.instructions ?? "")) {
    add("instructions-changed", "instructions", locked.instructions, live.instructions, diffText(locked.instructions ?? "", live.instructions ?? ""));
  }
  return out;
}

function unionKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}
