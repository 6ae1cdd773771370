import { NextResponse } from "next/server";
import { getDb } from "@/lib/db";
import { loadEnv } from "@/lib/env";
import { healthResponse } from "@/lib/health/health-response";

export const dynamic = "force-dynamic";

/**
 * PUBLIC: {"status": "ok" | "degraded" | "down"}, 200 while the database answers, else 503.
 * Details (database latency, workers' host names and pids) only for signed-in instance administrators.
 */
export async function GET(request: Request): Promise<Response> {
  const { httpStatus, body } = await healthResponse(getDb(), loadEnv().TOOLWATCH_HEARTBEAT_MS, request.headers);
  return NextResponse.json(body, { status: httpStatus, headers: { "Cache-Control": "no-store" } });
}
