import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { enforceShareRateLimit } from "@/lib/rate-limit/api-limit";
import { findLiveShareLink } from "@/lib/views/share-subscription";
import { SharePage } from "./SharePage";

// Public: a read-only view for someone outside the team, opened by its token alone. Never
// indexed, and the token-bearing URL is never sent on as a Referer (also set as headers in
// next.config.js, for responses that carry no <head>).
export const metadata: Metadata = {
  title: "Shared view · Toolwatch",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

export default async function Page({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  // An unknown, revoked or expired link answers HTTP 404 (not a 200 that later says "gone"), so
  // link checkers and proxies see it for what it is. The lookup counts against the address's
  // share limit like the API does, so the page is no cheaper oracle for guessing tokens; past
  // the limit the page renders and its API call shows the 429.
  try {
    await enforceShareRateLimit(getDb(), await headers());
  } catch (error) {
    if (error instanceof AppError && error.code === "RATE_LIMITED") return <SharePage token={token} />;
    throw error;
  }
  if (!(await findLiveShareLink(getDb(), token))) notFound();
  return <SharePage token={token} />;
}
