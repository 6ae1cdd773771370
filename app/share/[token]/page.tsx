import type { Metadata } from "next";
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
  return <SharePage token={token} />;
}
