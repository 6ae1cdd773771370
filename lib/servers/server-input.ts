import { z } from "zod";
import { checkUrl } from "../discovery/node/network-guard";

// What a client may send to register or edit a server. Field names follow the REST API.
const name = z.string().trim().min(1, "name is required").max(100, "name is at most 100 characters");
const stringMap = z.record(z.string().min(1).max(200), z.string().max(8_000));
// trust_first: the first version of each tool is pinned; strict: new tools need approval too.
const auditPolicy = z.enum(["trust_first", "strict"]);
const tag = z.string().trim().min(1).max(60).regex(/^[\w.:/-]+$/, "tags use letters, digits and . _ : / -");

export const ServerInput = z
  .object({
    name,
    transport: z.enum(["stdio", "streamable-http", "sse"]),
    command: z.string().trim().min(1).max(1_000).optional(),
    args: z.array(z.string().max(4_000)).max(100).optional(),
    cwd: z.string().max(1_000).optional(),
    env: stringMap.optional(),
    url: z.string().max(2_000).optional(),
    headers: stringMap.optional(),
    tags: z.array(tag).max(30).optional(),
    enabled: z.boolean().optional(),
    // The spec asks clients not to hammer servers: 10 s is the floor, default 5 min.
    pollIntervalSeconds: z.number().int().min(10, "pollIntervalSeconds is at least 10").max(86_400).optional(),
    auditPolicy: auditPolicy.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.transport === "stdio") {
      if (!v.command) ctx.addIssue({ code: "custom", path: ["command"], message: "command is required for stdio servers" });
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
  command: z.string().trim().min(1).max(1_000).optional(),
  args: z.array(z.string().max(4_000)).max(100).optional(),
  cwd: z.string().max(1_000).nullable().optional(),
  env: stringMap.optional(),
  url: z.string().max(2_000).optional(),
  headers: stringMap.optional(),
  tags: z.array(tag).max(30).optional(),
  enabled: z.boolean().optional(),
  pollIntervalSeconds: z.number().int().min(10).max(86_400).optional(),
  auditPolicy: auditPolicy.optional(),
});
export type ServerPatch = z.infer<typeof ServerPatch>;

