import { AccountPage } from "./AccountPage";

export default function Page() {
  return <AccountPage />;
}
