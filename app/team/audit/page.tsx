import { AuditPage } from "./AuditPage";

export const metadata = { title: "Audit log · Toolwatch" };

export default function Page() {
  return <AuditPage />;
}
