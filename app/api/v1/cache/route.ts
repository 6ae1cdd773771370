import { listCacheEntries } from "@/lib/cache/list-cache-entries";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam(({ ctx, searchParams }) => listCacheEntries(ctx, searchParams));
