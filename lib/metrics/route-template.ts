// Maps a request path to the route template that serves it ("/api/v1/servers/[id]"), so the
// HTTP metrics are labelled by route, never by raw path: ids, tokens and made-up paths from
// scanners would otherwise each start a new series. Paths no template matches are "other".

export const UNMATCHED_ROUTE = "other";

type Segment = { kind: "static"; text: string } | { kind: "dynamic" } | { kind: "catchAll"; optional: boolean };
type Template = { template: string; segments: Segment[]; rank: number[] };

const RANK = { static: 0, dynamic: 1, catchAll: 2, optionalCatchAll: 3 } as const;

function parseTemplate(template: string): Template {
  const segments: Segment[] = template
    .split("/")
    .filter(Boolean)
    .map((part) => {
      if (/^\[\[\.\.\.[^\]]+\]\]$/.test(part)) return { kind: "catchAll", optional: true };
      if (/^\[\.\.\.[^\]]+\]$/.test(part)) return { kind: "catchAll", optional: false };
      if (/^\[[^\]]+\]$/.test(part)) return { kind: "dynamic" };
      return { kind: "static", text: part };
    });
  const rank = segments.map((s) => (s.kind === "static" ? RANK.static : s.kind === "dynamic" ? RANK.dynamic : s.optional ? RANK.optionalCatchAll : RANK.catchAll));
  return { template, segments, rank };
}

/** Next's precedence: at the first segment where two templates differ, static beats [x] beats [...x]; an exact end beats more segments. */
function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? -1;
    const y = b[i] ?? -1;
    if (x !== y) return x - y;
  }
  return 0;
}

function matches(segments: Segment[], parts: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === "catchAll") return parts.length > i || (segment.optional && parts.length === i);
    const part = parts[i];
    if (part === undefined) return false;
    if (segment.kind === "static" && segment.text !== part) return false;
  }
  return parts.length === segments.length;
}

/** A function from a request URL (path, maybe with a query) to its template or UNMATCHED_ROUTE. */
export function createRouteMatcher(templates: readonly string[]): (url: string) => string {
  const ordered = [...new Set(templates)].map(parseTemplate).sort((a, b) => compareRanks(a.rank, b.rank));
  return (url) => {
    const end = url.search(/[?#]/);
    const parts = (end === -1 ? url : url.slice(0, end)).split("/").filter(Boolean);
    return ordered.find((t) => matches(t.segments, parts))?.template ?? UNMATCHED_ROUTE;
  };
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The method as a label: the standard ones, anything else "other". */
export function methodLabel(method: string | undefined): string {
  return method && METHODS.has(method) ? method : "other";
}

/** "2xx", "4xx", …; anything outside 100–599 "other". */
export function statusClass(status: number): string {
  return status >= 100 && status <= 599 ? `${Math.floor(status / 100)}xx` : "other";
}
