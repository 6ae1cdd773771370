import { ShareGone } from "@/app/share/_components/ShareGone";

// notFound() from page.tsx: the same words the live page switches to when a link is revoked.
export default function ShareNotFound() {
  return <ShareGone />;
}
