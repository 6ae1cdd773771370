import { NewServerPage } from "./NewServerPage";

export const metadata = { title: "Add a server · Toolwatch" };

export default function Page() {
  return <NewServerPage />;
}
