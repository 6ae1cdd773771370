import { hkdfSync } from "node:crypto";
import { apiKey } from "@better-auth/api-key";
import { APIError, betterAuth } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { createAccessControl } from "better-auth/plugins/access";
import { organization } from "better-auth/plugins/organization";
import { adminAc, defaultStatements, memberAc, ownerAc } from "better-auth/plugins/organization/access";
import { getDb, type Db } from "@/lib/db";
import { rootLogger } from "@/lib/logger";
import { loadEnv, type Env } from "@/lib/env";
import { getSecretKey } from "@/lib/secrets";
import { accountRateLimit } from "./account-rate-limit";
import { DEMO_USER_EMAIL } from "./demo-account";

// better-auth does the authentication: password hashing, sessions in httpOnly cookies, the
// organization plugin (tenant = organization: members, invitations, active team) and API-key
// verification. Toolwatch's own verbs (lib/auth/*) decide who may do what, with the one role
// table in permissions.ts; better-auth's access control below only has to know the four roles.
const statement = { ...defaultStatements, apiKey: ["create", "read", "update", "delete"] } as const;
const ac = createAccessControl(statement);
const keys = { apiKey: ["create", "read", "update", "delete"] } as const;
const orgRoles = {
  owner: ac.newRole({ ...ownerAc.statements, ...keys }),
  admin: ac.newRole({ ...adminAc.statements, ...keys }),
  member: ac.newRole({ ...memberAc.statements }),
  viewer: ac.newRole({}),
};

/** better-auth's secret, derived from Toolwatch's one secret key (never the key itself). */
function authSecret(): string {
  return Buffer.from(hkdfSync("sha256", getSecretKey(), Buffer.alloc(0), "toolwatch/better-auth/v1", 32)).toString("base64url");
}

// better-auth logs every rejected API key at ERROR with a dump; a bad key on a public endpoint
// is routine, so those become one quiet line and everything else keeps its level.
function log(level: "debug" | "info" | "warn" | "error", message: string, ...args: unknown[]) {
  if (/api key/i.test(message)) return;
  if (level === "debug") return;
  // Only the message of an Error argument: better-auth's other arguments can be requests or users.
  const first = args[0] instanceof Error ? `: ${args[0].message}` : "";
  rootLogger().child({ component: "auth" })[level === "error" ? "error" : "warn"](`${message}${first}`);
}

// Team, member, invitation and key changes go through Toolwatch's verbs (/api/v1: one role table,
// role ceilings, audit log, socket disconnects). The plugins' own HTTP routes skip all of that: an
// admin could mint or delete an owner's key, rename a team or change roles unaudited, and a viewer
// could list invitation links. Closed here; server-side calls (auth.api.*) are unaffected.
// Invitations are bound to their link (/invite/<id>): email verification is off, so whoever signs
// up first with an invitee's address must not be able to look the id up by address
// (list-user-invitations) or probe ids (get-invitation); the invite page reads /api/v1/invitations/<id>.
const PLUGIN_PATHS_OWNED_BY_TOOLWATCH = [
  "/api-key/create",
  "/api-key/update",
  "/api-key/delete",
  "/organization/create",
  "/organization/update",
  "/organization/delete",
  "/organization/get-full-organization",
  "/organization/list-invitations",
  "/organization/list-user-invitations",
  "/organization/get-invitation",
  "/organization/invite-member",
  "/organization/cancel-invitation",
  "/organization/accept-invitation",
  "/organization/reject-invitation",
  "/organization/update-member-role",
  "/organization/remove-member",
  "/organization/leave",
];

/** `env`: the settings to run with (tests pass their own limits); the process's own by default. */
export function createAuth(db: Db, env: Env = loadEnv()) {
  const authAttempts = { window: 60, max: Math.max(env.TOOLWATCH_AUTH_RATE_LIMIT, 1) };
  return betterAuth({
    appName: "Toolwatch",
    secret: authSecret(),
    // A fixed public URL when configured; otherwise the host the browser used (self-hosted
    // instances are reached by many names: localhost, an IP, a LAN name).
    baseURL: env.TOOLWATCH_BASE_URL ?? { allowedHosts: ["*"], fallback: `http://localhost:${env.PORT}`, protocol: "auto" },
    database: prismaAdapter(db, { provider: "postgresql" }),
    emailAndPassword: { enabled: true, minPasswordLength: 8, autoSignIn: true },
    disabledPaths: PLUGIN_PATHS_OWNED_BY_TOOLWATCH,
    advanced: { database: { generateId: "uuid" }, cookiePrefix: "toolwatch" },
    logger: { level: "warn", log },
    hooks: {
      // A changed password signs out every other session, whatever the client asked: whoever had
      // the old password must not keep a session it opened (better-auth hands the caller a new one).
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/change-password") return { context: { body: { ...(ctx.body as object), revokeOtherSessions: true } } };
      }),
    },
    // Per client address (x-forwarded-for as set by the web server) and path, in Postgres
    // (auth_rate_limit) so every web process counts against the same brake on password guessing.
    // Per account: the accountRateLimit plugin below.
    rateLimit: {
      enabled: env.TOOLWATCH_AUTH_RATE_LIMIT > 0,
      storage: "database",
      window: 60,
      max: 600,
      customRules: {
        "/sign-in/email": authAttempts,
        "/sign-up/email": authAttempts,
        "/request-password-reset": authAttempts,
        "/reset-password": authAttempts,
        "/change-password": authAttempts,
      },
    },
    user: { additionalFields: { instanceAdmin: { type: "boolean", defaultValue: false, input: false } } },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            if (env.TOOLWATCH_ALLOW_SIGNUP) return;
            const email = String(user.email).toLowerCase();
            const [anyAdmin, invited] = await Promise.all([
              db.user.count({ where: { instanceAdmin: true } }),
              db.invitation.count({ where: { email, status: "pending", expiresAt: { gt: new Date() } } }),
            ]);
            // The demo account is seeded by npm start while the demo is on; with the demo off its
            // address is an address like any other (no back door into a closed instance).
            const demoSeed = env.TOOLWATCH_DEMO && email === DEMO_USER_EMAIL;
            if (anyAdmin > 0 && invited === 0 && !demoSeed) {
              throw new APIError("FORBIDDEN", { message: "Sign-up is invitation-only on this instance: ask a team admin for an invitation link" });
            }
          },
          after: async (user) => {
            if (String(user.email).toLowerCase() !== DEMO_USER_EMAIL) await promoteFirstAccount(db, user.id);
          },
        },
      },
      session: {
        create: {
          // A new session starts in the user's first team, so a sign-in lands on a fleet.
          before: async (session) => {
            const first = await db.member.findFirst({ where: { userId: session.userId }, orderBy: { createdAt: "asc" }, select: { tenantId: true } });
            return { data: { ...session, activeTenantId: first?.tenantId ?? null } };
          },
        },
      },
    },
    plugins: [
      accountRateLimit(db, env.TOOLWATCH_AUTH_RATE_PER_ACCOUNT),
      organization({
        ac,
        roles: orgRoles,
        creatorRole: "owner",
        invitationExpiresIn: 7 * 24 * 3600,
        cancelPendingInvitationsOnReInvite: true,
        disableOrganizationDeletion: true, // a team's deletion would cascade into its history
        schema: {
          organization: { modelName: "tenant" },
          member: { fields: { organizationId: "tenantId" } },
          invitation: { fields: { organizationId: "tenantId" } },
          session: { fields: { activeOrganizationId: "activeTenantId" } },
        },
      }),
      apiKey({ references: "organization", defaultPrefix: "tw_", enableMetadata: true, rateLimit: { enabled: false } }, { schema: { apikey: { modelName: "apiKey" } } }),
    ],
  });
}

/**
 * The first account on a fresh instance administers it. Serialised by an advisory lock so two
 * simultaneous first sign-ups cannot both win.
 */
async function promoteFirstAccount(db: Db, userId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('toolwatch:first-admin'))`;
    if ((await tx.user.count({ where: { instanceAdmin: true } })) === 0) {
      await tx.user.update({ where: { id: userId }, data: { instanceAdmin: true } });
    }
  });
}

export type Auth = ReturnType<typeof createAuth>;

// One instance per process (Next dev re-evaluates modules; server.ts and the route bundle share it).
const holder = globalThis as unknown as { __toolwatchAuth?: Auth };

export function getAuth(): Auth {
  holder.__toolwatchAuth ??= createAuth(getDb());
  return holder.__toolwatchAuth;
}
