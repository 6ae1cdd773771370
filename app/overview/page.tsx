import { OverviewPage } from "./OverviewPage";

/** The overview at its own address, reachable also when a pinned view is the team's home. */
export default function Page() {
  return <OverviewPage />;
}
