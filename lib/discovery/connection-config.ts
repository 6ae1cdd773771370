import { z } from "zod";

// How to reach one MCP server. Env and headers may hold credentials: they are sealed at rest
// (lib/secrets.ts) and only the keys are ever shown.
export const TransportKindSchema = z.enum(["stdio", "streamable_http", "sse"]);
export type TransportKind = z.infer<typeof TransportKindSchema>;

export const ServerConnectionConfig = z.discriminatedUnion("transport", [
  z.object({
    transport: z.literal("stdio"),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    cwd: z.string().optional(),
    env: z.record(z.string(), z.string()).default({}),
  }),
  z.object({
    transport: z.enum(["streamable_http", "sse"]),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
  }),
]);
export type ServerConnectionConfig = z.infer<typeof ServerConnectionConfig>;
