import { QuotasPage } from "./QuotasPage";

export const metadata = { title: "Team quotas · Toolwatch" };

export default function Page() {
  return <QuotasPage />;
}
