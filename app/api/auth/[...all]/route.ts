import { toNextJsHandler } from "better-auth/next-js";
import { withRetryAfter } from "@/lib/auth/account-rate-limit";
import { getAuth } from "@/lib/auth/auth";
import { route } from "@/app/_lib/http";
import { assertSameOrigin } from "@/app/_lib/request-context";

// better-auth's own endpoints: sign-up/in/out, session, organization plugin.
export const dynamic = "force-dynamic";

const handler = () => toNextJsHandler(getAuth());
export const GET = async (request: Request) => withRetryAfter(await handler().GET(request));
// better-auth trusts every origin that matches baseURL.allowedHosts, and that is "*" here (any host
// name may reach a self-hosted instance), so its own CSRF check passes any Origin. Writes must come
// from the page's own origin, as for /api/v1.
export const POST = route(async (request: Request) => {
  assertSameOrigin(request);
  return withRetryAfter(await handler().POST(request));
});
