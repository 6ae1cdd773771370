import { ViewPage } from "./ViewPage";

export const metadata = { title: "View · Toolwatch" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ViewPage id={id} />;
}
