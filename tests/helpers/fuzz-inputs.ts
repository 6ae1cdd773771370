import fc from "fast-check";

// Inputs an attacker (or a broken client) sends to /api/v1: arbitrary JSON and strings, wrong
// types, unicode with lone surrogates and NUL, huge and deep payloads, weird query strings and
// path parameters. Field names the routes read are mixed in so the values reach validation.

export const FIELD_NAMES = [
  "name", "url", "transport", "command", "args", "env", "headers", "tags", "enabled", "pollIntervalSeconds", "description",
  "role", "email", "slug", "teamId", "ids", "id", "comment", "hash", "reason", "filters", "filter", "timeRange", "from", "to",
  "status", "severity", "serverIds", "events", "secret", "expiresAt", "expiresInDays", "maxServers", "minPollSeconds",
  "listingsPerMinute", "action", "servers", "kind", "label", "cursor", "limit", "q", "search", "tag", "sort", "order", "since",
  "until", "serverId", "tool", "toolName", "before", "after", "page", "pageSize", "include", "format", "token", "scope",
] as const;

/** Strings a validator must survive: lone surrogates, NUL, controls, RTL, huge, path tricks. */
export const nastyString = fc.oneof(
  fc.string(),
  fc.fullUnicodeString(),
  fc.string16bits(), // lone surrogates included
  fc.constantFrom(
    "", " ", "\u0000", "a\u0000b", "\ud800", "\udfff", "x\ud83d", "\u202e\u0000", "%00", "%", "%zz", "..", "../..", "/", "\\",
    "\r\n", "Bad Header\n", "null", "undefined", "NaN", "-1", "0", "1e309", "9".repeat(400), "true", "[]", "{}", "__proto__",
    "constructor", "' OR 1=1 --", "<script>alert(1)</script>", "${jndi:ldap://x}", "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff", "\ufeff", "😀".repeat(50), "é".normalize("NFD"),
  ),
);

const scalar = fc.oneof(nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.bigInt().map(String), fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, 1e308, 2 ** 31, -(2 ** 31) - 1));

/** JSON values, wrong types everywhere. */
export const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), nastyString), tie("value"), { maxKeys: 5 }),
  ),
})).value;

/** An object with the routes' own field names, each holding anything. */
export const fieldBag = fc.dictionary(fc.constantFrom(...FIELD_NAMES), jsonish, { maxKeys: 6 });

export type Body =
  | { kind: "json"; value: unknown }
  | { kind: "raw"; text: string; contentType: string | null };

/** 10,000 nested arrays (and objects): a recursive validator or a JSONB column must not fall over. */
export const DEEP_ARRAYS = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
export const DEEP_OBJECTS = `${'{"name":'.repeat(10_000)}1${"}".repeat(10_000)}`;
/** 2 MB of JSON string (over the 1 MB body limit) and 900 kB (under it) in a field. */
export const HUGE_STRING = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) });
export const BIG_FIELD = JSON.stringify({ name: "y".repeat(900_000), url: "z".repeat(10_000), tags: Array.from({ length: 5000 }, (_, i) => `t${i}`) });

/** The fixed cases every route and method gets, besides the random ones. */
export const FIXED_BODIES: Body[] = [
  { kind: "raw", text: DEEP_ARRAYS, contentType: "application/json" },
  { kind: "raw", text: DEEP_OBJECTS, contentType: "application/json" },
  { kind: "raw", text: HUGE_STRING, contentType: "application/json" },
  { kind: "raw", text: BIG_FIELD, contentType: "application/json" },
  { kind: "raw", text: '{"name":"a\\u0000b","url":"\\ud800","email":"\\u0000@x.y","role":"\\udfff","slug":"\\u0000"}', contentType: "application/json" },
  { kind: "raw", text: '{"name": "unterminated', contentType: "application/json" },
  { kind: "raw", text: "name=x&url=y", contentType: "application/x-www-form-urlencoded" },
  { kind: "raw", text: '{"name":"no type"}', contentType: null },
  { kind: "raw", text: "", contentType: "application/json" },
  { kind: "json", value: null },
  { kind: "json", value: [] },
  { kind: "json", value: "a string" },
  { kind: "json", value: 12345 },
  { kind: "raw", text: '{"__proto__":{"role":"owner"},"constructor":{"prototype":{"isAdmin":true}}}', contentType: "application/json" },
];

export const body: fc.Arbitrary<Body> = fc.oneof(
  fc.record({ kind: fc.constant("json" as const), value: fc.oneof(fieldBag, jsonish, fc.jsonValue()) }),
  fc.record({ kind: fc.constant("raw" as const), text: fc.oneof(fc.string(), fc.string16bits(), fc.json()), contentType: fc.constantFrom("application/json", "text/plain", null, "application/json; charset=utf-16") }),
);

/** Query strings: the routes' own parameter names and anything else, values of every sort. */
export const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FIELD_NAMES), nastyString), fc.oneof(nastyString, fc.integer().map(String))), { maxLength: 5 });

export const pathParam = nastyString;
