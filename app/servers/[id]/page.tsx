import { ServerPage } from "./ServerPage";

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ServerPage id={id} />;
}
