import { InvitePage } from "./InvitePage";

export const metadata = { title: "Invitation · Toolwatch" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <InvitePage id={id} />;
}
