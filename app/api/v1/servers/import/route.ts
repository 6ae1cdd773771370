import { importServers, MAX_IMPORT_CONFIG_CHARS } from "@/lib/import/import-servers";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// A config file's text as one JSON string (escaped: up to ~2 bytes a character) plus the envelope.
const MAX_IMPORT_BODY_BYTES = 2 * MAX_IMPORT_CONFIG_CHARS + 10_000;

// {"config": <text or object>, "format"?, "dryRun"} → 200 { format, dryRun, items: [{name, action, reason?, transport, target, changes?, notes, id?}], summary }.
export const POST = withTeam(async ({ ctx, request }) => importServers(ctx, await readJson(request, MAX_IMPORT_BODY_BYTES)));
