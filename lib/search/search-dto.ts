// Isomorphic: what GET /api/v1/search returns. Names, descriptions and titles are untrusted server
// text: render them as text, never HTML.
import type { AlertKindName, AlertStatusName } from "@/lib/alerts/alert-dto";
import type { Severity } from "@/lib/detection/types";

export type ServerHit = { id: string; name: string; status: string | null };
export type ToolHit = { serverId: string; serverName: string; name: string; /** The first 200 characters. */ description: string | null };
export type AlertHit = { id: string; serverId: string; serverName: string; kind: AlertKindName; severity: Severity; status: AlertStatusName; title: string };

export type SearchResult = { query: string; servers: ServerHit[]; tools: ToolHit[]; alerts: AlertHit[] };

/** The longest query accepted (a 400 beyond it). */
export const MAX_SEARCH_QUERY = 100;
/** Hits per group. */
export const SEARCH_LIMIT = 8;
