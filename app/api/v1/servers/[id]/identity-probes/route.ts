import { getIdentityProbeState } from "@/lib/identity-probes/get-probe-state";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

/** Which client identities this server is probed under, when, and each one's outcome (docs/identity-probes.md). */
export const GET = withTeam<{ id: string }>(({ ctx, params }) => getIdentityProbeState(ctx, params.id));
