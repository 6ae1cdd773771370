// Isomorphic: what the views and share-link APIs return. A share link's token appears only in
// the response that created it; listings show its first characters.
import type { ViewFilters } from "./view-input";

export type ViewDto = {
  id: string;
  name: string;
  filters: ViewFilters;
  /** The team's default home (at most one view per team). */
  pinned: boolean;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
};

export type ShareLinkStatus = "active" | "expired" | "revoked";

export type ShareLinkDto = {
  id: string;
  viewId: string;
  tokenStart: string;
  status: ShareLinkStatus;
  createdBy: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastAccessAt: string | null;
  accessCount: number;
};

/** Returned once, by POST /api/v1/views/{id}/share. */
export type CreatedShareLink = { id: string; token: string; path: string; expiresAt: string | null };

/**
 * Sent ("1") by the shared page on refetches after a live event or on focus: such a request
 * updates the link's lastAccessAt but not its accessCount (which counts page loads).
 */
export const SHARE_REFRESH_HEADER = "x-toolwatch-refresh";

/** GET /api/v1/share/{token}: the view's data only, for someone outside the team. */
export type SharedViewDto = {
  view: { name: string; filters: ViewFilters };
  servers: {
    id: string;
    name: string;
    status: string;
    transport: string;
    tags: string[];
    protocolVersion: string | null;
    toolCount: number | null;
    lastChangeAt: string | null;
    tools: SharedTool[];
  }[];
  alerts: { id: string; serverId: string; kind: string; severity: string; status: string; title: string; toolName: string | null; createdAt: string }[];
  generatedAt: string;
};

export type SharedTool = {
  name: string;
  title: string | null;
  description: string | null;
  inputSchema: unknown;
  outputSchema: unknown;
  annotations: unknown;
};
