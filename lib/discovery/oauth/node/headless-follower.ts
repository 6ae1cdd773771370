// `--oauth-headless`: for test authorization servers that approve at once (the conformance
// suite's answer /authorize with a redirect to the callback), the CLI plays the browser itself.
import type { GuardedFetch } from "@/lib/discovery/node/guarded-fetch";

const MAX_HOPS = 10;

/**
 * Follows the authorization URL's redirects with the guarded fetch until one points at
 * `redirectUrl`, and returns that callback URL (code, state, iss in its query) without
 * requesting it: the caller hands it to its loopback receiver. Pages that need a person
 * (a login form, a consent screen) end the walk with an error.
 */
export async function followAuthorizationUrl(authorizationUrl: URL, redirectUrl: string, fetch: GuardedFetch): Promise<URL> {
  const target = new URL(redirectUrl);
  let current = authorizationUrl;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if (current.origin === target.origin && current.pathname === target.pathname) return current;
    const response = await fetch(current, { method: "GET", redirect: "manual", headers: { accept: "text/html,application/json" } });
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || !location) {
      throw new Error(`the authorization endpoint answered ${response.status} instead of redirecting back; --oauth-headless only works with servers that approve without a person (use --oauth)`);
    }
    current = new URL(location, current);
  }
  throw new Error(`the authorization endpoint redirected more than ${MAX_HOPS} times`);
}
