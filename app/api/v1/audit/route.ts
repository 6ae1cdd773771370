import { listAuditEvents } from "../../../../lib/audit-log/list-audit";
import { route, searchParams } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => listAuditEvents(await getRequestContext(request), searchParams(request)));
