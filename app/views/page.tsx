import { ViewsPage } from "./ViewsPage";

export const metadata = { title: "Views · Toolwatch" };

export default function Page() {
  return <ViewsPage />;
}
