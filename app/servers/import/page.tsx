import { ImportServersPage } from "./ImportServersPage";

export const metadata = { title: "Import servers · Toolwatch" };

export default function Page() {
  return <ImportServersPage />;
}
