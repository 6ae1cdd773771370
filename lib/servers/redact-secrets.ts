import type { AuthSecrets } from "./server-auth";
import type { ServerConnectionConfig } from "./server-config";

/**
 * Removes a server's own secret values (env values, header values) from text that is about to be
 * stored, logged or shown: error messages and stderr tails can echo a token back to us.
 */
export function secretRedactor(config: ServerConnectionConfig, auth?: AuthSecrets | null): (text: string) => string {
  const oauthSecrets = Object.entries({ clientSecret: auth?.clientSecret, privateKeyPem: auth?.privateKeyPem }).filter((e): e is [string, string] => Boolean(e[1]));
  const values = [...Object.entries(config.transport === "stdio" ? config.env : config.headers), ...oauthSecrets]
    .flatMap(([key, value]) => {
      // A bearer token is also redacted without its scheme prefix.
      const bare = value.replace(/^(Bearer|Basic|Token)\s+/i, "");
      return [value, bare].filter((v) => v.length >= 4).map((v) => [key, v] as const);
    })
    .sort((a, b) => b[1].length - a[1].length);
  if (values.length === 0) return (text) => text;
  return (text) => values.reduce((out, [key, value]) => out.split(value).join(`[redacted ${key}]`), text);
}
