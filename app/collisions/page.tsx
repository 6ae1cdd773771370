import { CollisionsPage } from "./CollisionsPage";

export const metadata = { title: "Name collisions · Toolwatch" };

export default function Page() {
  return <CollisionsPage />;
}
