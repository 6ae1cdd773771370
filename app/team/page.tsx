import { MembersPage } from "./MembersPage";

export const metadata = { title: "Team · Toolwatch" };

export default function Page() {
  return <MembersPage />;
}
