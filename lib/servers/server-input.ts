import { z } from "zod";
import { checkUrl } from "@/lib/discovery/node/network-guard";
import { ServerProbeSettingsPatch } from "@/lib/identity-probes/settings-schema";
import { ServerAuthInput } from "./server-auth";

// What a client may send to register or edit a server. Field names follow the REST API.
const name = z.string().trim().min(1, "name is required").max(100, "name is at most 100 characters");
const stringMap = z.record(z.string().min(1).max(200), z.string().max(8_000));

// Header names are RFC 9110 tokens and values carry no CR, LF or NUL (a line break would end the
// header or smuggle another one in). Environment variable names are POSIX-ish: no "=", NUL, white
// space or control characters; values no NUL (the OS cannot pass one). Refused when saved, each
// naming its field as headers["name"] / env["name"]; values are never repeated (they are secrets).
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const ENV_NAME = /^[^=\s\p{Cc}]+$/u;
/** The map key as a path segment that lib/validation.ts attaches as headers["name"]. */
const key = (name: string) => `[${JSON.stringify(name)}]`;
const headerMap = stringMap.superRefine((headers, ctx) => {
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) ctx.addIssue({ code: "custom", path: [key(name)], message: "is not a valid header name (RFC 9110 token: letters, digits and !#$%&'*+-.^_`|~, no spaces)" });
    else if (/[\r\n\0]/.test(value)) ctx.addIssue({ code: "custom", path: [key(name)], message: "the value contains a line break (CR or LF) or a NUL character" });
  }
});
const envMap = stringMap.superRefine((env, ctx) => {
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name)) ctx.addIssue({ code: "custom", path: [key(name)], message: 'is not a valid environment variable name (no "=", NUL, white space or control characters)' });
    else if (value.includes("\0")) ctx.addIssue({ code: "custom", path: [key(name)], message: "the value contains a NUL character" });
  }
});
const noNul = (what: string) => [(v: string) => !v.includes("\0"), `${what} cannot contain a NUL character`] as const;
const command = z.string().trim().min(1).max(1_000).refine(...noNul("command"));
const args = z.array(z.string().max(4_000).refine(...noNul("args"))).max(100);
const cwd = z.string().max(1_000).refine(...noNul("cwd"));
// trust_first: the first version of each tool is pinned; strict: new tools need approval too.
const auditPolicy = z.enum(["trust_first", "strict"]);
const tag = z.string().trim().min(1).max(60).regex(/^[\w.:/-]+$/, "tags use letters, digits and . _ : / -");

export const ServerInput = z
  .object({
    name,
    transport: z.enum(["stdio", "streamable-http", "sse"]),
    command: command.optional(),
    args: args.optional(),
    cwd: cwd.optional(),
    env: envMap.optional(),
    url: z.string().max(2_000).optional(),
    headers: headerMap.optional(),
    tags: z.array(tag).max(30).optional(),
    enabled: z.boolean().optional(),
    // The spec asks clients not to hammer servers: 10 s is the floor, default 5 min.
    pollIntervalSeconds: z.number().int().min(10, "pollIntervalSeconds is at least 10").max(86_400).optional(),
    auditPolicy: auditPolicy.optional(),
    // OAuth 2.1 sign-in for HTTP servers (lib/servers/server-auth.ts); secrets sealed, never returned.
    auth: ServerAuthInput.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.transport === "stdio") {
      if (!v.command) ctx.addIssue({ code: "custom", path: ["command"], message: "command is required for stdio servers" });
      if (v.auth) ctx.addIssue({ code: "custom", path: ["auth"], message: "auth (OAuth) applies to HTTP servers only" });
      if (v.url || v.headers) ctx.addIssue({ code: "custom", path: ["url"], message: "url and headers apply to HTTP servers only" });
    } else {
      if (!v.url) ctx.addIssue({ code: "custom", path: ["url"], message: "url is required for HTTP servers" });
      else {
        const checked = checkUrl(v.url);
        if (!checked.ok) ctx.addIssue({ code: "custom", path: ["url"], message: checked.message });
      }
      if (v.command || v.args || v.env || v.cwd) ctx.addIssue({ code: "custom", path: ["command"], message: "command, args, cwd and env apply to stdio servers only" });
    }
  });
export type ServerInput = z.infer<typeof ServerInput>;

export const ServerPatch = z.object({
  name: name.optional(),
  command: command.optional(),
  args: args.optional(),
  cwd: cwd.nullable().optional(),
  env: envMap.optional(),
  url: z.string().max(2_000).optional(),
  headers: headerMap.optional(),
  tags: z.array(tag).max(30).optional(),
  enabled: z.boolean().optional(),
  pollIntervalSeconds: z.number().int().min(10).max(86_400).optional(),
  auditPolicy: auditPolicy.optional(),
  /** Identity probes for this server (docs/identity-probes.md); not a column of the server row. */
  identityProbes: ServerProbeSettingsPatch.optional(),
  // A new auth replaces the old one (and forgets its tokens); null removes OAuth.
  auth: ServerAuthInput.nullable().optional(),
});
export type ServerPatch = z.infer<typeof ServerPatch>;

