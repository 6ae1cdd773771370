-- CreateTable
CREATE TABLE "tool_name_entry" (
    "tenant_id" UUID NOT NULL,
    "server_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "folded" TEXT NOT NULL,
    "skeleton" TEXT NOT NULL,
    "sibling_key" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "version_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_name_entry_pkey" PRIMARY KEY ("server_id","name")
);

-- CreateTable
CREATE TABLE "tool_name_variant" (
    "tenant_id" UUID NOT NULL,
    "variant" TEXT NOT NULL,
    "skeleton" TEXT NOT NULL,
    "sibling_key" TEXT NOT NULL,

    CONSTRAINT "tool_name_variant_pkey" PRIMARY KEY ("tenant_id","variant","skeleton","sibling_key")
);

-- CreateIndex
CREATE INDEX "tool_name_entry_tenant_id_name_hash_idx" ON "tool_name_entry"("tenant_id", "name", "hash");

-- CreateIndex
CREATE INDEX "tool_name_entry_tenant_id_skeleton_name_idx" ON "tool_name_entry"("tenant_id", "skeleton", "name");

-- CreateIndex
CREATE INDEX "tool_name_entry_tenant_id_folded_idx" ON "tool_name_entry"("tenant_id", "folded");

-- AddForeignKey
ALTER TABLE "tool_name_entry" ADD CONSTRAINT "tool_name_entry_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_name_entry" ADD CONSTRAINT "tool_name_entry_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_name_variant" ADD CONSTRAINT "tool_name_variant_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A server leaving the team (deleted through any code path) leaves the team's name_collision
-- alerts too, whatever code path deletes it: each unresolved alert about one of its names lists
-- the servers that still offer the name, moves to the first of them if it was anchored on the
-- leaving server, and is resolved ("superseded") when fewer than two remain. Same per-name locks
-- (tenant:name) as lib/alerts/tool-name-index.ts takes, in the same sorted order; browsers are told
-- through the realtime channel, as lib/realtime/notify.ts does.
CREATE FUNCTION "tool_name_collisions_on_server_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  a record;
  total integer;
  listed jsonb;
  first3 text;
  anchor uuid;
BEGIN
  -- The whole team is being deleted (this runs inside the tenant's cascade): nothing to keep.
  IF NOT EXISTS (SELECT 1 FROM tenant t WHERE t.id = OLD.tenant_id) THEN
    RETURN OLD;
  END IF;
  PERFORM pg_advisory_xact_lock(k)
     FROM (SELECT DISTINCT hashtextextended(OLD.tenant_id::text || ':' || e.name, 0) AS k
             FROM tool_name_entry e WHERE e.server_id = OLD.id ORDER BY 1) AS locks;
  FOR a IN
    SELECT al.id, al.tool_name, al.server_id, al.details, al.title FROM alert al
     WHERE al.tenant_id = OLD.tenant_id AND al.kind = 'name_collision' AND al.status <> 'resolved'
       AND al.tool_name IN (SELECT e.name FROM tool_name_entry e WHERE e.server_id = OLD.id)
  LOOP
    SELECT count(*) INTO total FROM tool_name_entry e
     WHERE e.tenant_id = OLD.tenant_id AND e.name = a.tool_name AND e.server_id <> OLD.id;
    SELECT coalesce(jsonb_agg(jsonb_build_object('serverId', x.server_id, 'serverName', x.server_name) ORDER BY x.rn), '[]'::jsonb),
           string_agg(x.server_name, ', ' ORDER BY x.rn) FILTER (WHERE x.rn <= 3)
      INTO listed, first3
      FROM (SELECT e.server_id, m.name AS server_name, row_number() OVER (ORDER BY e.created_at, m.name, e.server_id) AS rn
              FROM tool_name_entry e JOIN mcp_server m ON m.id = e.server_id AND m.tenant_id = OLD.tenant_id
             WHERE e.tenant_id = OLD.tenant_id AND e.name = a.tool_name AND e.server_id <> OLD.id
             ORDER BY rn LIMIT 200) AS x;
    anchor := CASE WHEN a.server_id = OLD.id THEN (listed -> 0 ->> 'serverId')::uuid ELSE a.server_id END;
    -- Nobody else offers it: the alert goes with the server (cascade).
    CONTINUE WHEN anchor IS NULL;
    UPDATE alert SET
        server_id = anchor,
        details = coalesce(a.details, '{}'::jsonb) || jsonb_build_object('collisions', listed, 'serverCount', total),
        title = CASE WHEN total < 2 THEN a.title ELSE left(
          to_json(CASE WHEN length(a.tool_name) > 80 THEN left(a.tool_name, 79) || '…' ELSE a.tool_name END)::text
          || ' is offered by ' || total || ' servers: ' || first3
          || CASE WHEN total > 3 THEN ' and ' || (total - 3) || ' more' ELSE '' END, 300) END,
        status = CASE WHEN total < 2 THEN 'resolved'::"alert_status" ELSE status END,
        resolution = CASE WHEN total < 2 THEN 'superseded' ELSE resolution END,
        resolved_by = CASE WHEN total < 2 THEN 'system' ELSE resolved_by END,
        resolved_at = CASE WHEN total < 2 THEN now() ELSE resolved_at END,
        updated_at = now()
      WHERE id = a.id;
    PERFORM pg_notify('toolwatch_events', json_build_object('type', 'alert:changed', 'tenantId', OLD.tenant_id, 'serverId', anchor, 'alertId', a.id)::text);
  END LOOP;
  RETURN OLD;
END;
$$;

CREATE TRIGGER "tool_name_collisions_on_server_delete" BEFORE DELETE ON "mcp_server"
  FOR EACH ROW EXECUTE FUNCTION "tool_name_collisions_on_server_delete"();

-- Backfill from each server's latest snapshot, so servers that exist before this migration are
-- partners at once. The keys are computed here for ASCII names exactly as lib/audit/name-keys.ts
-- does (lower case, separators, numbering, version markers, plural "s"); a name the SQL folds
-- differently (look-alike letters) is rewritten by its server's next evaluation, which compares
-- every row's keys with name-keys.ts. Existing per-pair name_collision alerts are merged into one
-- per name the next time one of its servers changes that name.
INSERT INTO "tool_name_entry" ("tenant_id", "server_id", "name", "folded", "skeleton", "sibling_key", "hash", "version_id", "created_at")
SELECT DISTINCT ON (l.server_id, tv.name) l.tenant_id, l.server_id, tv.name, k.folded,
       regexp_replace(k.folded, '[\s_.-]+', '', 'g'),
       regexp_replace(regexp_replace(regexp_replace(
         regexp_replace(k.folded, '(^|[\s_./:-])v\d+(\.\d+)*(?=$|[\s_./:-])', '\1', 'g'),
         '\d+', '', 'g'), '[\s_.-]+', '', 'g'), '([^s])s$', '\1'),
       tv.hash, tv.id, l.taken_at
  FROM (SELECT DISTINCT ON (s.server_id) s.tenant_id, s.server_id, s.tool_version_ids, s.taken_at
          FROM "snapshot" s ORDER BY s.server_id, s.taken_at DESC) AS l
  CROSS JOIN LATERAL unnest(l.tool_version_ids) WITH ORDINALITY AS u(id, ord)
  JOIN "tool_version" tv ON tv.id = u.id AND tv.tenant_id = l.tenant_id
  CROSS JOIN LATERAL (SELECT btrim(lower(regexp_replace(tv.name, '\s+', ' ', 'g'))) AS folded) AS k
 ORDER BY l.server_id, tv.name, u.ord;

INSERT INTO "tool_name_variant" ("tenant_id", "variant", "skeleton", "sibling_key")
SELECT DISTINCT e.tenant_id, v.variant, e.skeleton, e.sibling_key
  FROM "tool_name_entry" e
  CROSS JOIN LATERAL (
    SELECT e.skeleton AS variant WHERE length(e.skeleton) >= 6
    UNION
    SELECT substr(e.skeleton, 1, i - 1) || substr(e.skeleton, i + 1)
      FROM generate_series(1, length(e.skeleton)) AS i WHERE length(e.skeleton) BETWEEN 6 AND 48
  ) AS v
ON CONFLICT DO NOTHING;

-- The keys above are exact for ASCII names only. Servers offering other names get one catch-up
-- evaluation on their next re-list (the snapshot counts as unjudged), which rewrites their rows
-- with the keys lib/audit/name-keys.ts computes.
UPDATE "snapshot" SET "evaluated" = false
 WHERE "id" IN (SELECT DISTINCT ON ("server_id") "id" FROM "snapshot" ORDER BY "server_id", "taken_at" DESC, "id" DESC)
   AND EXISTS (SELECT 1 FROM "tool_name_entry" e WHERE e."server_id" = "snapshot"."server_id" AND e."name" ~ '[^\x01-\x7f]');
