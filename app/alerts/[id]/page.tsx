import { AlertPage } from "./AlertPage";

export const metadata = { title: "Alert · Toolwatch" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AlertPage id={id} />;
}
