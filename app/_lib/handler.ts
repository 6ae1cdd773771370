import { contextForPrincipal, type Principal } from "@/lib/auth/authenticate";
import type { ServiceContext } from "@/lib/context";
import { getDb } from "@/lib/db";
import { route, searchParams as queryOf } from "./http";
import { getCaller, getRequestContext, getSignedInUser } from "./request-context";

// Every /api/v1 route handler in one shape (dub's withWorkspace is the model): the wrapper
// authenticates, resolves the route's params and the query, and turns errors into the JSON
// envelope (route() in ./http.ts). The handler then only parses, calls one lib verb and replies:
//
//   export const GET = withTeam<{ id: string }>(({ ctx, params }) => getAlert(ctx, params.id));
//
// Pick the wrapper by who may call: withTeam (a member's session or a team API key, acting in a
// team), withUser (a signed-in person, never a key), withUserInTeam (a person, in their active
// team), withCaller (anyone authenticated, team or not), withPublic (no credentials at all).

export type SignedInUser = Extract<Principal, { kind: "user" }>;
type Params = Record<string, string>;
/** What Next passes as the second argument. Optional: app/_lib/direct-routes.ts calls with the request alone. */
type RouteContext<P extends Params> = { params: Promise<P> };
type HandlerArgs<P extends Params> = { request: Request; params: P; searchParams: Record<string, string> };
type Handler<A, P extends Params> = (args: A & HandlerArgs<P>) => Promise<unknown> | unknown;

function wrapper<A>(authorize: (request: Request) => Promise<A>) {
  return <P extends Params = Record<string, never>>(handler: Handler<A, P>) =>
    route(async (request: Request, context?: RouteContext<P>) => {
      const auth = await authorize(request);
      const params = context ? await context.params : ({} as P);
      return handler({ ...auth, request, params, searchParams: queryOf(request) });
    });
}

/** A team's member (session) or API key, with the team context every verb takes first. 401 without credentials. */
export const withTeam = wrapper(async (request): Promise<{ ctx: ServiceContext }> => ({ ctx: await getRequestContext(request) }));

/** A signed-in person, never an API key (403): teams, invitations and sign-outs are personal acts. */
export const withUser = wrapper(async (request): Promise<{ user: SignedInUser }> => ({ user: await getSignedInUser(request) }));

/** A signed-in person acting in their active team (OAuth authorization: a browser flow, bound to the session). */
export const withUserInTeam = wrapper(async (request): Promise<{ user: SignedInUser; ctx: ServiceContext }> => {
  const user = await getSignedInUser(request);
  return { user, ctx: await contextForPrincipal(getDb(), user) };
});

/** Anyone authenticated, whether or not they belong to a team yet (GET /api/v1/me). */
export const withCaller = wrapper(async (request): Promise<{ principal: Principal }> => ({ principal: await getCaller(request) }));

/** No credentials: the handler's own token or nothing guards it (share links, invitation previews). Say why at the route. */
export const withPublic = wrapper(async (): Promise<Record<never, never>> => ({}));
