import { ToolHistoryPage } from "./ToolHistoryPage";

export default async function Page({ params }: { params: Promise<{ id: string; name: string }> }) {
  const { id, name } = await params;
  return <ToolHistoryPage id={id} name={decodeSegment(name)} />;
}

/** Next hands page params over percent-encoded (a tool named "a b" arrives as "a%20b"); route handlers get them decoded. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
