import { NextResponse } from "next/server";
import { signOutEverywhere } from "../../../../../lib/auth/sessions";
import { getDb } from "../../../../../lib/db";
import { route } from "../../../../_lib/http";
import { getSignedInUser } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

/** Ends every session of the signed-in person (this one too) and clears this browser's cookie. */
export const POST = route(async (request: Request) => {
  const user = await getSignedInUser(request);
  const result = await signOutEverywhere(getDb(), user.userId);
  const response = NextResponse.json(result, { headers: { "Cache-Control": "no-store" } });
  for (const name of ["toolwatch.session_token", "__Secure-toolwatch.session_token"]) {
    response.cookies.set({ name, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: "lax", secure: name.startsWith("__Secure-") });
  }
  return response;
});
