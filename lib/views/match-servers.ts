// Isomorphic (no I/O): which servers a view shows and in what order. The fleet page (in the
// browser) and the public share endpoint (on the server) both call these, so a view and its
// share link always show the same servers.
import type { ServerSummary } from "@/lib/servers/server-dto";
import type { ViewFilters } from "./view-input";

/** The fields the filters and sort keys read; ServerSummary and the share DTO both fit. */
export type FilterableServer = Pick<ServerSummary, "name" | "tags" | "status" | "transport" | "protocolVersion" | "toolCount" | "lastChangeAt">;

export function matchesServer(server: FilterableServer, filters: ViewFilters): boolean {
  const f = filters.servers;
  if (!f) return true;
  if (f.tags?.length && !f.tags.every((t) => server.tags.includes(t))) return false;
  if (f.statuses?.length && !(f.statuses as string[]).includes(server.status)) return false;
  if (f.transports?.length && !(f.transports as string[]).includes(server.transport)) return false;
  if (f.query && !server.name.toLowerCase().includes(f.query.toLowerCase())) return false;
  return true;
}

/** Without a sort: the order given (listServers: by name). Missing values sort last either way; ties by name. */
export function sortServers<S extends FilterableServer>(servers: S[], sort: ViewFilters["sort"]): S[] {
  if (!sort) return servers;
  const sign = sort.dir === "desc" ? -1 : 1;
  const key = (s: S): string | number | null => s[sort.by];
  return [...servers].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === y) return a.name.localeCompare(b.name);
    if (x === null) return 1;
    if (y === null) return -1;
    return sign * (typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y)));
  });
}

/** One server condition of a view, as the empty state names it. */
export type ServerCondition =
  | { field: "tags"; value: string }
  | { field: "statuses" | "transports"; values: string[] }
  | { field: "query"; value: string };

/** Each server condition of a view, one per tag, with the filters that remain without it alone. */
export function serverConditions(filters: ViewFilters): { condition: ServerCondition; without: ViewFilters }[] {
  const f = filters.servers ?? {};
  const conditions: ServerCondition[] = [
    ...(f.tags ?? []).map((value) => ({ field: "tags" as const, value })),
    ...(f.statuses?.length ? [{ field: "statuses" as const, values: [...f.statuses] }] : []),
    ...(f.transports?.length ? [{ field: "transports" as const, values: [...f.transports] }] : []),
    ...(f.query ? [{ field: "query" as const, value: f.query }] : []),
  ];
  return conditions.map((condition) => ({ condition, without: withoutCondition(filters, condition) }));
}

/**
 * When a view shows no servers: each server condition with how many servers would show if only
 * that condition were dropped, so the page can say which filter hides everything.
 */
export function explainNoMatch(servers: FilterableServer[], filters: ViewFilters): { condition: ServerCondition; without: ViewFilters; wouldShow: number }[] {
  return serverConditions(filters).map(({ condition, without }) => ({ condition, without, wouldShow: servers.filter((s) => matchesServer(s, without)).length }));
}

export function withoutCondition(filters: ViewFilters, condition: ServerCondition): ViewFilters {
  const servers = { ...filters.servers };
  if (condition.field === "tags") {
    const tags = (servers.tags ?? []).filter((t) => t !== condition.value);
    if (tags.length) servers.tags = tags;
    else delete servers.tags;
  } else {
    delete servers[condition.field];
  }
  const rest: ViewFilters = { ...filters };
  delete rest.servers;
  return Object.keys(servers).length ? { ...rest, servers } : rest;
}
