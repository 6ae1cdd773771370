import { parseItemKey, type SurfaceKind } from "@/lib/surface/surface-keys";
import { DIFF_KINDS, diffHref, toolHref, type DiffKind } from "@/app/_lib/links";

const NOUN: Record<SurfaceKind, string> = { prompt: "Prompt", resource: "Resource", resource_template: "Template", instructions: "Instructions" };
const tabOf = (kind: SurfaceKind): DiffKind => DIFF_KINDS.find((k) => k.kind === kind)!.id;

/**
 * What an alert's item is: a tool, or a prompt / resource / template / the instructions, judged
 * under a key such as "prompt summarize" (lib/surface/surface-keys.ts). Tools link to their
 * history; other items to the server's latest diff of their kind.
 */
export function alertItem(serverId: string, key: string): { noun: string; name: string; href: string } {
  const item = parseItemKey(key);
  if (!item) return { noun: "Tool", name: key, href: toolHref(serverId, key) };
  return { noun: NOUN[item.kind], name: item.kind === "instructions" ? "server instructions" : item.name, href: diffHref(serverId, { kind: tabOf(item.kind) }) };
}
