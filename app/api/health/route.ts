import { NextResponse } from "next/server";
import { getDb } from "../../../lib/db";
import { loadEnv } from "../../../lib/env";
import { getHealth } from "../../../lib/health/get-health";

export const dynamic = "force-dynamic";

/** Liveness of the database and of at least one worker (heartbeat younger than 3 beats). */
export async function GET(): Promise<Response> {
  const health = await getHealth(getDb(), loadEnv().TOOLWATCH_HEARTBEAT_MS);
  return NextResponse.json(health, { status: health.database.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
