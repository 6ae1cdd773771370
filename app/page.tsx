import { FleetPage } from "./FleetPage";

export default function Page() {
  return <FleetPage />;
}
