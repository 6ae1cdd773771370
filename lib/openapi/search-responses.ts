// Response schemas of the search and collisions endpoints (lib/search, lib/collisions), kept apart
// from responses.ts so each family of endpoints owns its schemas. Strict: a DTO field added there
// and not here fails tests/integration/openapi.test.ts.
import { z } from "zod";
import { ALERT_KINDS, ALERT_SEVERITIES, ALERT_STATUSES } from "@/lib/alerts/alert-dto";

const alertFields = { kind: z.enum(ALERT_KINDS), severity: z.enum(ALERT_SEVERITIES), status: z.enum(ALERT_STATUSES), title: z.string() };

export const SearchResult = z
  .strictObject({
    query: z.string().describe("The query as searched (trimmed)"),
    servers: z.array(z.strictObject({ id: z.string(), name: z.string(), status: z.string().nullable() })),
    tools: z.array(z.strictObject({ serverId: z.string(), serverName: z.string(), name: z.string(), description: z.string().nullable().describe("The first 200 characters") })),
    alerts: z.array(z.strictObject({ id: z.string(), serverId: z.string(), serverName: z.string(), ...alertFields })),
  })
  .meta({ id: "SearchResult" });

export const Collision = z
  .strictObject({
    toolName: z.string(),
    serverCount: z.number().int(),
    definitionCount: z.number().int().describe("Distinct definitions among the servers offering the name"),
    servers: z.array(
      z.strictObject({
        serverId: z.string(),
        serverName: z.string(),
        since: z.string().describe("ISO 8601 date-time"),
        definition: z.number().int().describe("Which distinct definition (1-based, by first offer)"),
        qualifiedNames: z.array(z.strictObject({ host: z.enum(["claude-code", "vscode"]), name: z.string() })),
      }),
    ),
    alerts: z.array(z.strictObject({ id: z.string(), serverId: z.string(), ...alertFields })),
  })
  .meta({ id: "Collision" });
