import { NextResponse } from "next/server";
import { signOutEverywhere } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db";
import { withUser } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

const SESSION_COOKIES = ["toolwatch.session_token", "__Secure-toolwatch.session_token"];

/** Ends every session of the signed-in person (this one too) and clears this browser's cookie. */
export const POST = withUser(async ({ user }) => {
  const response = NextResponse.json(await signOutEverywhere(getDb(), user.userId), { headers: { "Cache-Control": "no-store" } });
  for (const name of SESSION_COOKIES) {
    response.cookies.set({ name, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: "lax", secure: name.startsWith("__Secure-") });
  }
  return response;
});
