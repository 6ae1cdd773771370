// `--oauth`, `--client-id` and friends: which OAuth grant a CLI run uses, and the pieces that run it
// (loopback receiver, browser, headless follower). The protocol itself is the SDK's (lib/discovery/oauth).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { createInteractiveProvider } from "@/lib/discovery/oauth/interactive-provider";
import { followAuthorizationUrl } from "@/lib/discovery/oauth/node/headless-follower";
import { startLoopbackReceiver } from "@/lib/discovery/oauth/node/loopback-receiver";
import { createMachineProvider, signingAlgorithmOf, type MachineCredentials } from "@/lib/discovery/oauth/node/machine-provider";
import type { GuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import { UsageError } from "./parse-target";

export const OAUTH_OPTIONS = {
  oauth: { type: "boolean", default: false },
  "oauth-headless": { type: "boolean", default: false },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  "client-key": { type: "string" },
  "client-metadata-url": { type: "string" },
  scope: { type: "string" },
  "idp-token-endpoint": { type: "string" },
  "idp-client-id": { type: "string" },
  "id-token-file": { type: "string" },
  "oauth-timeout": { type: "string", default: "300000" },
} as const;

export const OAUTH_USAGE = `OAuth (--url only): --oauth | --oauth-headless   authorization code + PKCE in a browser (loopback redirect)
    [--client-id id [--client-secret s]] [--client-metadata-url https://…] [--scope "a b"] [--oauth-timeout ms]
  --client-id id (--client-secret s | --client-key key.pem) [--scope "a b"]   client credentials (secret or private_key_jwt)
  --client-id id --client-secret s --idp-token-endpoint url --idp-client-id id --id-token-file f   enterprise-managed (ID-JAG)`;

export type OAuthValues = {
  oauth: boolean;
  "oauth-headless": boolean;
  "client-id"?: string;
  "client-secret"?: string;
  "client-key"?: string;
  "client-metadata-url"?: string;
  scope?: string;
  "idp-token-endpoint"?: string;
  "idp-client-id"?: string;
  "id-token-file"?: string;
  "oauth-timeout": string;
};

/** What a run authorizes with. Holds secrets: never printed, never logged. */
export type OAuthPlan =
  | { kind: "interactive"; headless: boolean; clientId?: string; clientSecret?: string; clientMetadataUrl?: string; scope?: string; timeoutMs: number }
  | { kind: "machine"; credentials: MachineCredentials };

/** Throws UsageError with a one-line reason; reads key and token files (their contents are never echoed). */
export function resolveOAuth(values: OAuthValues, isHttp: boolean): OAuthPlan | undefined {
  const interactive = values.oauth || values["oauth-headless"];
  const clientId = values["client-id"];
  const secret = values["client-secret"];
  const keyFile = values["client-key"];
  const idp = [values["idp-token-endpoint"], values["idp-client-id"], values["id-token-file"]];
  const any = interactive || clientId || secret || keyFile || values.scope || values["client-metadata-url"] || idp.some(Boolean);
  if (!any) return undefined;
  if (!isHttp) throw new UsageError("OAuth options apply to --url servers only");
  if ((secret || keyFile) && !clientId) throw new UsageError("--client-secret and --client-key need --client-id");
  if (secret && keyFile) throw new UsageError("give --client-secret or --client-key, not both");
  const timeoutMs = Number(values["oauth-timeout"]);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1000) throw new UsageError("--oauth-timeout takes milliseconds (at least 1000)");
  const metadataUrl = values["client-metadata-url"];
  if (metadataUrl && !isHttpsDocumentUrl(metadataUrl)) throw new UsageError("--client-metadata-url must be an https URL with a path");
  const scope = values.scope ? { scope: values.scope } : {};

  if (interactive) {
    if (keyFile) throw new UsageError("--client-key is for client credentials; it cannot be combined with --oauth");
    if (idp.some(Boolean)) throw new UsageError("--idp-* options are for enterprise-managed authorization; they cannot be combined with --oauth");
    return {
      kind: "interactive",
      headless: values["oauth-headless"],
      ...(clientId ? { clientId } : {}),
      ...(secret ? { clientSecret: secret } : {}),
      ...(metadataUrl ? { clientMetadataUrl: metadataUrl } : {}),
      ...scope,
      timeoutMs,
    };
  }
  if (metadataUrl) throw new UsageError("--client-metadata-url needs --oauth or --oauth-headless");
  if (!clientId) throw new UsageError("--scope needs --oauth, --oauth-headless or client credentials (--client-id with --client-secret or --client-key)");
  if (idp.some(Boolean)) {
    if (!idp.every(Boolean) || !secret) throw new UsageError("enterprise-managed authorization needs --client-id, --client-secret, --idp-token-endpoint, --idp-client-id and --id-token-file");
    const idToken = readSecretFile(values["id-token-file"]!, "--id-token-file").trim();
    return { kind: "machine", credentials: { kind: "id_jag", clientId, clientSecret: secret, idpTokenEndpoint: values["idp-token-endpoint"]!, idpClientId: values["idp-client-id"]!, idToken, ...scope } };
  }
  if (secret) return { kind: "machine", credentials: { kind: "client_secret", clientId, clientSecret: secret, ...scope } };
  if (keyFile) {
    const privateKeyPem = readSecretFile(keyFile, "--client-key");
    try {
      signingAlgorithmOf(privateKeyPem);
    } catch (error) {
      throw new UsageError(`--client-key: ${(error as Error).message}`);
    }
    return { kind: "machine", credentials: { kind: "private_key_jwt", clientId, privateKeyPem, ...scope } };
  }
  throw new UsageError("--client-id needs --oauth/--oauth-headless (authorization code) or --client-secret/--client-key (client credentials)");
}

function isHttpsDocumentUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.pathname !== "/";
  } catch {
    return false;
  }
}

function readSecretFile(path: string, flag: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

export type OAuthRun = {
  authProvider: OAuthClientProvider;
  awaitAuthorizationCallback?: () => Promise<URLSearchParams>;
  close(): Promise<void>;
};

/** Builds the provider for a plan; for the interactive flow, also the loopback receiver it waits on. */
export async function startOAuth(plan: OAuthPlan, fetch: GuardedFetch, say: (line: string) => void): Promise<OAuthRun> {
  if (plan.kind === "machine") return { authProvider: createMachineProvider(plan.credentials, fetch), close: async () => undefined };
  const receiver = await startLoopbackReceiver({ timeoutMs: plan.timeoutMs });
  const provider = createInteractiveProvider({
    redirectUrl: receiver.redirectUrl,
    ...(plan.clientId ? { clientId: plan.clientId } : {}),
    ...(plan.clientSecret ? { clientSecret: plan.clientSecret } : {}),
    ...(plan.clientMetadataUrl ? { clientMetadataUrl: plan.clientMetadataUrl } : {}),
    ...(plan.scope ? { scope: plan.scope } : {}),
    onRedirect: async (url) => {
      if (plan.headless) {
        say(`toolwatch: authorizing without a browser at ${url.origin}${url.pathname}`);
        receiver.deliver(await followAuthorizationUrl(url, receiver.redirectUrl, fetch));
        return;
      }
      say(`toolwatch: open this URL to authorize (waiting for the redirect to ${receiver.redirectUrl}):\n${url.href}`);
      openBrowser(url.href);
    },
  });
  return {
    authProvider: provider,
    awaitAuthorizationCallback: () => receiver.waitForCallback(() => provider.expectedState()),
    close: () => receiver.close(),
  };
}

/** Best effort: a desktop opener when one is there; the printed URL is the real interface. */
function openBrowser(url: string): void {
  const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? undefined : "xdg-open";
  if (!opener || (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)) return;
  try {
    const child = spawn(opener, [url], { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // no opener: the user copies the URL
  }
}
