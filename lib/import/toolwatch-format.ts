import type { ServerSummary } from "@/lib/servers/server-dto";
import { checked } from "./check-entry";
import { EXPORT_KIND, EXPORT_VERSION, isToolwatchExport } from "./detect-format";
import { ImportFormatError, type ImportEntry, type ServerBody } from "./types";

// Toolwatch's own export (`toolwatch export`, read back by `toolwatch import`):
//   { "toolwatch": "servers", "version": 1, "exportedAt": "…", "servers": [ <POST /api/v1/servers bodies> ] }
// The API never returns secret values, so env and header values are written as `${env:NAME}`
// references to be filled in where the file is used; the names are exact.

export { EXPORT_KIND, EXPORT_VERSION, isToolwatchExport };

type Obj = Record<string, unknown>;

export function parseToolwatchExport(doc: Obj): ImportEntry[] {
  if (doc.version !== EXPORT_VERSION) {
    throw new ImportFormatError(`this Toolwatch export has version ${JSON.stringify(doc.version)}; this toolwatch reads version ${EXPORT_VERSION}`);
  }
  if (!Array.isArray(doc.servers)) throw new ImportFormatError("a Toolwatch export needs a servers list");
  return doc.servers.map((raw, i): ImportEntry => {
    const name = typeof (raw as Obj | null)?.name === "string" ? ((raw as Obj).name as string) : `(item ${i})`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { name, refused: "the item is not an object" };
    return checked({ ...(raw as ServerBody), name });
  });
}

/** An environment-variable name for a header (Authorization → AUTHORIZATION, X-Api-Key → X_API_KEY). */
export function placeholderName(key: string): string {
  return key.toUpperCase().replace(/[^A-Z0-9_]/g, "_");
}

const TRANSPORT = { stdio: "stdio", streamable_http: "streamable-http", sse: "sse" } as const;

/**
 * One server as the export writes it. The API gives a stdio server's command line as one string
 * (`target`), so it is split at spaces: an argument that itself contains a space comes back split.
 */
export function exportServer(s: ServerSummary): ServerBody {
  const common = { tags: s.tags, enabled: s.enabled, pollIntervalSeconds: s.pollIntervalSeconds, auditPolicy: s.auditPolicy };
  if (s.transport === "stdio") {
    const [command = "", ...args] = s.target.split(" ").filter((w) => w !== "");
    return { name: s.name, transport: "stdio", command, args, env: Object.fromEntries(s.envKeys.map((k) => [k, `\${env:${k}}`])), ...common };
  }
  return { name: s.name, transport: TRANSPORT[s.transport], url: s.target, headers: Object.fromEntries(s.headerKeys.map((k) => [k, `\${env:${placeholderName(k)}}`])), ...common };
}

export function exportDocument(servers: ServerSummary[], now: Date): { toolwatch: string; version: number; exportedAt: string; servers: ServerBody[] } {
  return { toolwatch: EXPORT_KIND, version: EXPORT_VERSION, exportedAt: now.toISOString(), servers: servers.filter((s) => !s.demo).map(exportServer) };
}
