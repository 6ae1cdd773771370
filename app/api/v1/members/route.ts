import { listMembers } from "../../../../lib/auth/members";
import { route } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => ({ items: await listMembers(await getRequestContext(request)) }));
