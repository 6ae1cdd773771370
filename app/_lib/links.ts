// Paths of the history pages, built in one place so every link encodes ids and tool names alike.
import type { SurfaceKind } from "@/lib/surface/surface-keys";

export const serverHref = (serverId: string) => `/servers/${encodeURIComponent(serverId)}`;

export const alertHref = (id: string) => `/alerts/${encodeURIComponent(id)}`;
export const toolHref = (serverId: string, name: string) => `${serverHref(serverId)}/tools/${encodeURIComponent(name)}`;

/** What a diff page shows: tools (the default) or one kind of the server's other lists. */
export type DiffKind = "tools" | "prompts" | "resources" | "templates" | "instructions";

/** The kinds of item a server offers, as the server page's tabs and the diff page's `?kind=` name them. */
export const DIFF_KINDS: Array<{ id: DiffKind; label: string; kind: SurfaceKind | null }> = [
  { id: "tools", label: "Tools", kind: null },
  { id: "prompts", label: "Prompts", kind: "prompt" },
  { id: "resources", label: "Resources", kind: "resource" },
  { id: "templates", label: "Templates", kind: "resource_template" },
  { id: "instructions", label: "Instructions", kind: "instructions" },
];

export const parseDiffKind = (raw: string | null): DiffKind => DIFF_KINDS.find((k) => k.id === raw)?.id ?? "tools";

/** Omitted sides take the API's defaults: `to` = latest, `from` = the snapshot before `to`. */
export function diffHref(serverId: string, range: { from?: string | null; to?: string | null; kind?: DiffKind | null } = {}): string {
  const qs = new URLSearchParams();
  if (range.from) qs.set("from", range.from);
  if (range.to) qs.set("to", range.to);
  if (range.kind && range.kind !== "tools") qs.set("kind", range.kind);
  const query = qs.toString();
  return `${serverHref(serverId)}/diff${query ? `?${query}` : ""}`;
}

/** The fleet table (the team's home is the overview at `/`, or the fleet when a view is pinned). */
export const FLEET_PATH = "/servers";

/** The fleet with a view's query string ("" or "?tag=…", as viewSearchString returns it). */
export const fleetHref = (search = "") => `${FLEET_PATH}${search}`;
