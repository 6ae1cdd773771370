import { describe, expect, it } from "vitest";
import { explainNoMatch, matchesServer, sortServers, type FilterableServer } from "@/lib/views/match-servers";
import { ViewFilters } from "@/lib/views/view-input";
import { hasViewUrlParams, isEmptyViewFilters, normalizeViewFilters, parseViewUrl, sameViewFilters, toViewUrlParams, viewSearchString } from "@/lib/views/view-url";

const FULL: ViewFilters = ViewFilters.parse({
  servers: { tags: ["prod", "vendor:github"], statuses: ["live", "degraded"], transports: ["stdio"], query: "git hub" },
  alerts: { kinds: ["tool_changed", "suspicious_content"], severities: ["critical", "high"] },
  timeRange: "7d",
  columns: ["name", "status", "alerts"],
  sort: { by: "toolCount", dir: "desc" },
});

const roundTrip = (filters: ViewFilters) => parseViewUrl(new URLSearchParams(viewSearchString(filters)));

describe("view filters ⇄ URL", () => {
  it.each<[string, ViewFilters]>([
    ["no filters", {}],
    ["every field", FULL],
    ["an absolute time range", { timeRange: { from: "2026-05-01T08:00:00.000Z", to: "2026-05-02T08:00:00+02:00" } }],
    ["an open-ended absolute range", { timeRange: { from: "2026-05-01T08:00:00.000Z" } }],
    ["ascending sort", ViewFilters.parse({ sort: { by: "name" } })],
    ["one tag with a slash and a dot", { servers: { tags: ["team/a.b"] } }],
    ["a query with & = # and commas", { servers: { query: "a&b=c #1, x" } }],
  ])("round-trips %s", (_, filters) => {
    expect(roundTrip(filters)).toEqual(filters);
  });

  it("writes readable URLs: commas and colons are not escaped, ascending sort has no dir", () => {
    expect(viewSearchString(FULL)).toBe(
      "?tag=prod,vendor:github&status=live,degraded&transport=stdio&q=git+hub&kind=tool_changed,suspicious_content&severity=critical,high&range=7d&cols=name,status,alerts&sort=toolCount&dir=desc",
    );
    expect(viewSearchString(ViewFilters.parse({ sort: { by: "name" } }))).toBe("?sort=name");
    expect(viewSearchString({}, { view: "all" })).toBe("?view=all");
  });

  it("gives every key a value or null, so setting them all clears what a view does not use", () => {
    const params = toViewUrlParams({ servers: { statuses: ["down"] } });
    expect(params).toEqual({ tag: null, status: "down", transport: null, q: null, kind: null, severity: null, range: null, from: null, to: null, cols: null, sort: null, dir: null });
  });

  it("reads a plain record (as useQueryStates or Next's searchParams hold it) like URLSearchParams", () => {
    expect(parseViewUrl({ tag: "prod", status: ["live", "ignored"], view: "abc" })).toEqual({ servers: { tags: ["prod"], statuses: ["live"] } });
  });

  it("ignores invalid values one by one and keeps the rest", () => {
    const url = new URLSearchParams(
      "tag=,prod,,prod&status=live,exploded&transport=carrier-pigeon&q=%20%20&kind=nope&severity=high,HIGH&range=7y&cols=name,secret&sort=target&dir=sideways",
    );
    expect(parseViewUrl(url)).toEqual({ servers: { tags: ["prod"], statuses: ["live"] }, alerts: { severities: ["high"] }, columns: ["name"] });
  });

  it("drops a reversed or malformed absolute range, and prefers a relative one", () => {
    expect(parseViewUrl(new URLSearchParams("from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z"))).toEqual({});
    expect(parseViewUrl(new URLSearchParams("from=yesterday&to=2026-05-01T00:00:00Z"))).toEqual({ timeRange: { to: "2026-05-01T00:00:00Z" } });
    expect(parseViewUrl(new URLSearchParams("range=24h&from=2026-05-01T00:00:00Z"))).toEqual({ timeRange: "24h" });
  });

  it("caps what the schema caps instead of failing: overlong query cut, overlong tags dropped", () => {
    const filters = parseViewUrl({ q: "x".repeat(500), tag: `${"t".repeat(101)},ok` });
    expect(filters.servers).toEqual({ query: "x".repeat(200), tags: ["ok"] });
    expect(ViewFilters.safeParse(filters).success).toBe(true);
  });

  it("a dir without a sort means nothing", () => {
    expect(parseViewUrl({ dir: "desc" })).toEqual({});
  });

  it("hasViewUrlParams() sees any filter key, even an invalid one, but not `view`", () => {
    expect(hasViewUrlParams(new URLSearchParams("view=all"))).toBe(false);
    expect(hasViewUrlParams(new URLSearchParams("status=bogus"))).toBe(true);
    expect(hasViewUrlParams({ q: "" })).toBe(true);
  });

  it("sameViewFilters() ignores list order and an explicit ascending dir, not content", () => {
    const reordered = ViewFilters.parse({ ...FULL, servers: { ...FULL.servers, tags: ["vendor:github", "prod"] }, columns: ["alerts", "name", "status"] });
    expect(sameViewFilters(FULL, reordered)).toBe(true);
    expect(sameViewFilters({ sort: { by: "name", dir: "asc" } }, ViewFilters.parse({ sort: { by: "name" } }))).toBe(true);
    expect(sameViewFilters(FULL, { ...FULL, timeRange: "24h" })).toBe(false);
    expect(sameViewFilters({ servers: { tags: [] } }, {})).toBe(true);
    expect(normalizeViewFilters(reordered).columns).toEqual(["alerts", "name", "status"]);
    expect(isEmptyViewFilters({ servers: {} })).toBe(true);
  });
});

const server = (name: string, over: Partial<FilterableServer> = {}): FilterableServer => ({
  name,
  tags: [],
  status: "live",
  transport: "stdio",
  protocolVersion: null,
  toolCount: null,
  lastChangeAt: null,
  ...over,
});

describe("matching and sorting servers", () => {
  const fleet = [
    server("GitHub", { tags: ["prod", "vendor:github"], toolCount: 40, transport: "streamable_http" }),
    server("gitlab-staging", { tags: ["staging"], status: "down", toolCount: 12 }),
    server("notes", { tags: ["prod"], status: "degraded" }),
  ];

  it("matchesServer() needs every tag, any listed status and transport, and the name case-insensitively", () => {
    const names = (f: ViewFilters) => fleet.filter((s) => matchesServer(s, f)).map((s) => s.name);
    expect(names({ servers: { tags: ["prod"] } })).toEqual(["GitHub", "notes"]);
    expect(names({ servers: { tags: ["prod", "vendor:github"] } })).toEqual(["GitHub"]);
    expect(names({ servers: { statuses: ["down", "degraded"] } })).toEqual(["gitlab-staging", "notes"]);
    expect(names({ servers: { query: "GIT" } })).toEqual(["GitHub", "gitlab-staging"]);
    expect(names({ servers: { transports: ["stdio"], query: "git" } })).toEqual(["gitlab-staging"]);
  });

  it("sortServers() puts missing values last in both directions", () => {
    expect(sortServers(fleet, { by: "toolCount", dir: "asc" }).map((s) => s.name)).toEqual(["gitlab-staging", "GitHub", "notes"]);
    expect(sortServers(fleet, { by: "toolCount", dir: "desc" }).map((s) => s.name)).toEqual(["GitHub", "gitlab-staging", "notes"]);
  });

  it("explainNoMatch() says which single condition hides everything", () => {
    const filters: ViewFilters = { servers: { tags: ["prod", "staging"], statuses: ["down"] } };
    expect(fleet.filter((s) => matchesServer(s, filters))).toEqual([]);
    const explained = explainNoMatch(fleet, filters).map((e) => [e.condition, e.wouldShow]);
    expect(explained).toEqual([
      [{ field: "tags", value: "prod" }, 1],
      [{ field: "tags", value: "staging" }, 0],
      [{ field: "statuses", values: ["down"] }, 0],
    ]);
    expect(explainNoMatch(fleet, filters)[0]!.without).toEqual({ servers: { tags: ["staging"], statuses: ["down"] } });
  });
});
