import { EditServerPage } from "./EditServerPage";

export const metadata = { title: "Edit server · Toolwatch" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <EditServerPage id={id} />;
}
