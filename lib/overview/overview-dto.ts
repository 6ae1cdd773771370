// Isomorphic: what GET /api/v1/overview answers and the overview page renders. Server names, tool
// names and alert titles are untrusted server text: render them as text, never HTML.
import { z } from "zod";
import type { AlertKindName, AlertStatusName } from "@/lib/alerts/alert-dto";
import type { Severity } from "@/lib/detection/types";
import type { SeverityCounts } from "@/lib/servers/server-dto";

export const OVERVIEW_FEED_SIZE = 10;

let zones: Set<string> | undefined;
const isTimeZone = (tz: string) => tz === "UTC" || (zones ??= new Set(Intl.supportedValuesOf("timeZone"))).has(tz);

/** Named by the IANA database (what the browser's Intl reports); the days of the chart are its days. */
const timeZone = z.string().max(64).refine(isTimeZone, { message: "not an IANA time zone name (e.g. Europe/Berlin)" });

export const OverviewQuery = z
  .object({
    /** How many days the chart covers, today included. */
    days: z.coerce.number().int().min(7, "days is at least 7").max(90, "days is at most 90").default(14),
    tz: timeZone.default("UTC"),
  })
  .strip();
export type OverviewQuery = z.infer<typeof OverviewQuery>;

/** A snapshot that changed a server's list (its first listing is not a change). */
export type OverviewChange = {
  snapshotId: string;
  serverId: string;
  serverName: string;
  takenAt: string;
  toolCount: number;
  added: number;
  removed: number;
  changed: number;
  highest: "ERR" | "WARN" | "INFO" | null;
};

export type OverviewAlert = {
  id: string;
  serverId: string;
  serverName: string;
  kind: AlertKindName;
  severity: Severity;
  status: AlertStatusName;
  title: string;
  toolName: string | null;
  createdAt: string;
};

export type Overview = {
  generatedAt: string;
  servers: { total: number; byStatus: Partial<Record<string, number>> };
  /** Alerts waiting for someone (status open; acknowledged ones are being looked at). */
  openAlerts: { total: number; bySeverity: SeverityCounts };
  changes: { last24h: number; last7d: number };
  /** Tools in every server's latest list, summed. */
  tools: { total: number };
  /** Tokens the team's tool lists cost in a model's context; null until that is measured. */
  contextTokens: number | null;
  /** Changes recorded and alerts opened per day of `timeZone`, oldest first, today last. */
  timeline: { timeZone: string; days: { day: string; changes: number; alerts: number }[] };
  latestChanges: OverviewChange[];
  latestAlerts: OverviewAlert[];
};
