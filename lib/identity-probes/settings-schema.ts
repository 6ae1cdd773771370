import { z } from "zod";
import { CLIENT_IDENTITY_KEYS } from "@/lib/discovery/client-identities";

// Isomorphic: what a client may send to change identity-probe settings (team and server).

const identityKey = z.enum(CLIENT_IDENTITY_KEYS as [string, ...string[]], { message: `an identity is one of ${CLIENT_IDENTITY_KEYS.join(", ")}` });
const identityList = z.array(identityKey).max(CLIENT_IDENTITY_KEYS.length * 2);

export const TeamProbeSettingsPatch = z.strictObject({
  enabled: z.boolean().optional(),
  /** [] = every identity of the catalog. */
  identities: identityList.optional(),
  /** null = the instance default (TOOLWATCH_IDENTITY_PROBE_INTERVAL_MS). */
  intervalMinutes: z.number().int().min(15, "intervalMinutes is at least 15").max(10_080, "intervalMinutes is at most 10080 (a week)").nullable().optional(),
  /** Probe stdio servers too (each probe starts a process); a server's own setting still wins. */
  probeStdio: z.boolean().optional(),
});
export type TeamProbeSettingsPatch = z.infer<typeof TeamProbeSettingsPatch>;

export const ServerProbeSettingsPatch = z.strictObject({
  /** null = the team's default (off for stdio servers). */
  enabled: z.boolean().nullable().optional(),
  /** null = the team's choice. */
  identities: identityList.min(1, "choose at least one identity, or null for the team's choice").nullable().optional(),
});
export type ServerProbeSettingsPatch = z.infer<typeof ServerProbeSettingsPatch>;

