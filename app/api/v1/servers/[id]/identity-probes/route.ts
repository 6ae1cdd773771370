import { getIdentityProbeState } from "../../../../../../lib/identity-probes/get-probe-state";
import { route, type IdParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

/** Which client identities this server is probed under, when, and each one's outcome (docs/identity-probes.md). */
export const GET = route(async (request: Request, { params }: IdParams) => getIdentityProbeState(await getRequestContext(request), (await params).id));
