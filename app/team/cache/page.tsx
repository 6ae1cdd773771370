import { CachePage } from "./CachePage";

export const metadata = { title: "Tool-list cache · Toolwatch" };

export default function Page() {
  return <CachePage />;
}
