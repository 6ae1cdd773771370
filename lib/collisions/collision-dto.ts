// Isomorphic: what GET /api/v1/collisions returns. Tool and server names are untrusted server text:
// render them as text, never HTML.
import type { AlertKindName, AlertStatusName } from "@/lib/alerts/alert-dto";
import type { Severity } from "@/lib/detection/types";
import type { QualifiedName } from "./qualified-names";

export type CollisionServer = {
  serverId: string;
  serverName: string;
  /** When this server started offering the name (the collision alert lists servers in this order). */
  since: string;
  /** Which of the name's distinct definitions this server offers (1-based, by first offer). */
  definition: number;
  qualifiedNames: QualifiedName[];
};

export type CollisionAlertLink = { id: string; kind: AlertKindName; severity: Severity; status: AlertStatusName; title: string; serverId: string };

export type Collision = {
  toolName: string;
  /** How many of the team's servers offer the name now (servers below may be cut at MAX_SERVERS_PER_COLLISION). */
  serverCount: number;
  /** 1: the same definition everywhere (a template deployed twice); more: an agent cannot tell them apart by name. */
  definitionCount: number;
  servers: CollisionServer[];
  /** The unresolved alerts about this name: its name_collision alert and cross-server findings (R19–R21) on it. */
  alerts: CollisionAlertLink[];
};

export type CollisionPage = { items: Collision[]; nextCursor: string | null };
