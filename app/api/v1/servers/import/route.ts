import { importServers, MAX_IMPORT_CONFIG_CHARS } from "../../../../../lib/import/import-servers";
import { stdioPermissionFor } from "../../../../../lib/servers/stdio-policy";
import { readJson, route } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

// A config file's text as one JSON string (escaped: up to ~2 bytes a character) plus the envelope.
const MAX_IMPORT_BODY_BYTES = 2 * MAX_IMPORT_CONFIG_CHARS + 10_000;

// {"config": <text or object>, "format"?, "dryRun"} → 200 { format, dryRun, items: [{name, action, reason?, transport, target, changes?, notes, id?}], summary }.
export const POST = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return importServers(ctx, await readJson(request, MAX_IMPORT_BODY_BYTES), stdioPermissionFor(ctx));
});
