import { getTeamProbeSettings, updateTeamProbeSettings } from "@/lib/identity-probes/probe-settings";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

/** The team's identity-probe defaults (docs/identity-probes.md). */
export const GET = withTeam(({ ctx }) => getTeamProbeSettings(ctx));

export const PATCH = withTeam(async ({ ctx, request }) => updateTeamProbeSettings(ctx, await readJson(request)));
