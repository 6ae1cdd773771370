import { revokeApiKey } from "../../../../../lib/auth/api-keys";
import { route, type IdParams } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const DELETE = route(async (request: Request, { params }: IdParams) => revokeApiKey(await getRequestContext(request), (await params).id));
