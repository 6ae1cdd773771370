-- Issue 12: the ⌘K tool search reads current tools only (one tool_name_entry row per name of each
-- server's latest snapshot), yet its two trigram GIN indexes sat on tool_version, the whole
-- history. Every listing of a new server paid them on the hot path: 50 descriptions and names,
-- ~2.4 of ~5.8 ms per 50-tool insert on an idle database (.scratch micro-bench, bench/RESULTS.md),
-- and they grew with every version ever seen. Now the search text lives on tool_name_entry, which
-- the judgement lane keeps equal to the latest snapshots; its indexes hold what search can return.

ALTER TABLE "tool_name_entry" ADD COLUMN "description" TEXT;

UPDATE "tool_name_entry" e
   SET "description" = v."definition" ->> 'description'
  FROM "tool_version" v
 WHERE v."id" = e."version_id" AND v."tenant_id" = e."tenant_id";

DROP INDEX "tool_version_name_trgm_idx";
DROP INDEX "tool_version_description_trgm_idx";

-- CreateIndex
CREATE INDEX "tool_name_entry_name_trgm_idx" ON "tool_name_entry" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "tool_name_entry_description_trgm_idx" ON "tool_name_entry" USING GIN ("description" gin_trgm_ops);
