import { isRole, type Role } from "@/lib/context";

// What Toolwatch keeps in an API key's metadata (the plugin stores it as JSON text).
// createdByUserId: the person the key belongs to (its creator, or whom an admin transferred it to);
// the key is revoked when that person leaves the team. createdBy is their label (email) for the list.
export type KeyMetadata = { role?: Role; createdBy?: string; createdByUserId?: string; revokedAt?: string; revokedBy?: string };

export function parseKeyMetadata(raw: unknown): KeyMetadata {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return {};
    }
  }
  if (!value || typeof value !== "object") return {};
  const v = value as Record<string, unknown>;
  return {
    ...(isRole(v.role) ? { role: v.role } : {}),
    ...(typeof v.createdBy === "string" ? { createdBy: v.createdBy } : {}),
    ...(typeof v.createdByUserId === "string" ? { createdByUserId: v.createdByUserId } : {}),
    ...(typeof v.revokedAt === "string" ? { revokedAt: v.revokedAt } : {}),
    ...(typeof v.revokedBy === "string" ? { revokedBy: v.revokedBy } : {}),
  };
}
