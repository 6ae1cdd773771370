import type { Db } from "@/lib/db";

// "Sign out everywhere": every session of a person ends, the one asking included. Sessions live in
// Postgres only (no cookie cache, no secondary storage), so deleting the rows ends them at the
// next request; open sockets are dropped when the web process re-validates them.

// internal-writer: a person ends their own sessions; not a team act, no team permission applies
export async function signOutEverywhere(db: Db, userId: string): Promise<{ revoked: number }> {
  const { count } = await db.session.deleteMany({ where: { userId } });
  return { revoked: count };
}
