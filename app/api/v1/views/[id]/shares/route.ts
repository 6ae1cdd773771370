import { listShareLinks } from "@/lib/views/share-links";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam<{ id: string }>(async ({ ctx, params }) => ({ items: await listShareLinks(ctx, params.id) }));
