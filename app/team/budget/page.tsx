import { BudgetPage } from "./BudgetPage";

export const metadata = { title: "Context budget · Toolwatch" };

export default function Page() {
  return <BudgetPage />;
}
