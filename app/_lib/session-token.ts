import { getAuth } from "../../lib/auth/auth";

/** The token of the request's session (from better-auth, never by parsing the cookie by hand). */
export async function sessionToken(request: Request): Promise<string | null> {
  const session = await getAuth().api.getSession({ headers: request.headers }).catch(() => null);
  return session?.session.token ?? null;
}
