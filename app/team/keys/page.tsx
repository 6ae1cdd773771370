import { KeysPage } from "./KeysPage";

export const metadata = { title: "API keys · Toolwatch" };

export default function Page() {
  return <KeysPage />;
}
