import { transferApiKey } from "../../../../../../lib/auth/key-ownership";
import { readJson, route, type IdParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

/** Hands a key to another member ({ memberId }): it then lives as long as their membership. */
export const POST = route(async (request: Request, { params }: IdParams) => transferApiKey(await getRequestContext(request), (await params).id, await readJson(request)));
