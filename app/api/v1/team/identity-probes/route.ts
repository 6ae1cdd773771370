import { getTeamProbeSettings, updateTeamProbeSettings } from "../../../../../lib/identity-probes/probe-settings";
import { readJson, route } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

/** The team's identity-probe defaults (docs/identity-probes.md). */
export const GET = route(async (request: Request) => getTeamProbeSettings(await getRequestContext(request)));

export const PATCH = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return updateTeamProbeSettings(ctx, await readJson(request));
});
