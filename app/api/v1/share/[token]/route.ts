import { getDb } from "@/lib/db";
import { enforceShareRateLimit } from "@/lib/rate-limit/api-limit";
import { resolveShare } from "@/lib/views/resolve-share";
import { SHARE_REFRESH_HEADER } from "@/lib/views/view-dto";
import { withPublic } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

type TokenParams = { token: string };

/**
 * PUBLIC: the data behind a share link, no sign-in. The token is the only credential, so nothing
 * here may depend on a session; 404 alike for unknown, expired and revoked links; never cached.
 * The shared page marks its own refetches with SHARE_REFRESH_HEADER: they do not count as an access.
 */
const readShare = withPublic<TokenParams>(async ({ request, params }) => {
  await enforceShareRateLimit(getDb(), request.headers);
  return resolveShare(getDb(), params.token, { countAccess: request.headers.get(SHARE_REFRESH_HEADER) !== "1" });
});

export async function GET(request: Request, context: { params: Promise<TokenParams> }): Promise<Response> {
  const response = await readShare(request, context);
  // Errors too: a 404 must not be cached while a link is revoked/recreated; the token is in the URL.
  response.headers.set("Cache-Control", "no-store");
  response.headers.set("Referrer-Policy", "no-referrer");
  response.headers.set("X-Robots-Tag", "noindex");
  return response;
}
