-- Context budget (issue 17, docs/context-budget.md): what each tool version costs in a model's
-- context (o200k_base tokens, counted once in Node when the row is inserted: versions are
-- immutable), each snapshot's sum, the team's budget, and its alert kind. Rows from before stay
-- NULL until the worker's startup backfill counts them (lib/context-tokens/backfill-context-tokens.ts).
ALTER TYPE "alert_kind" ADD VALUE 'context_budget';

-- AlterTable
ALTER TABLE "tenant" ADD COLUMN "context_budget_tokens" INTEGER;

-- AlterTable
ALTER TABLE "tool_version" ADD COLUMN "context_tokens" INTEGER;

-- AlterTable
ALTER TABLE "snapshot" ADD COLUMN "context_tokens" INTEGER;

-- The listing write path stores the counts the caller computed for new versions (a version that
-- already exists keeps its row: ON CONFLICT DO NOTHING, no row locks shared between servers) and
-- the snapshot's sum, which stays NULL while any item is uncounted (the backfill sets it later).
CREATE OR REPLACE FUNCTION tw_record_snapshot(p jsonb)
RETURNS TABLE (outcome text, snapshot_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_tenant uuid := (p->>'tenantId')::uuid;
  v_server uuid := (p->>'serverId')::uuid;
  v_at timestamptz := (p->>'at')::timestamptz;
  v_latest uuid; v_ids uuid[]; v_sids uuid[]; v_id uuid; v_uncounted bigint; v_tokens bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(v_server::text));
  PERFORM pg_advisory_xact_lock_shared(hashtext('toolwatch:prune'));
  IF NOT tw_hold_lease(v_server, p->>'worker') THEN
    RETURN QUERY SELECT 'lease_lost'::text, NULL::uuid; RETURN;
  END IF;
  PERFORM 1 FROM mcp_server WHERE id = v_server AND tenant_id = v_tenant;
  IF NOT FOUND THEN RETURN QUERY SELECT 'server_gone'::text, NULL::uuid; RETURN; END IF;
  SELECT s.id INTO v_latest FROM snapshot s WHERE s.tenant_id = v_tenant AND s.server_id = v_server ORDER BY s.taken_at DESC, s.id DESC LIMIT 1;
  IF v_latest IS DISTINCT FROM (p->>'expectedPrev')::uuid THEN
    RETURN QUERY SELECT 'stale_head'::text, v_latest; RETURN;
  END IF;
  INSERT INTO tool_version (id, tenant_id, hash, name, kind, definition, first_seen_at, context_tokens)
    SELECT gen_random_uuid(), v_tenant, t->>'hash', t->>'name', COALESCE(t->>'kind', 'tool'), t->'definition', v_at, (t->>'contextTokens')::int
      FROM (SELECT * FROM jsonb_array_elements(p->'tools') UNION ALL SELECT * FROM jsonb_array_elements(COALESCE(p->'surface', '[]'::jsonb))) AS items(t)
    ON CONFLICT (tenant_id, hash) DO NOTHING;
  -- The sums ride on the lookups that build the id arrays: no extra read per item.
  SELECT COALESCE(array_agg(tv.id ORDER BY o.ord), '{}'), count(*) - count(tv.context_tokens), COALESCE(sum(tv.context_tokens), 0)
    INTO v_ids, v_uncounted, v_tokens
    FROM jsonb_array_elements_text(p->'order') WITH ORDINALITY o(hash, ord)
    JOIN tool_version tv ON tv.tenant_id = v_tenant AND tv.hash = o.hash;
  SELECT COALESCE(array_agg(tv.id ORDER BY o.ord), '{}'), v_uncounted + count(*) - count(tv.context_tokens), v_tokens + COALESCE(sum(tv.context_tokens), 0)
    INTO v_sids, v_uncounted, v_tokens
    FROM jsonb_array_elements_text(COALESCE(p->'surfaceOrder', '[]'::jsonb)) WITH ORDINALITY o(hash, ord)
    JOIN tool_version tv ON tv.tenant_id = v_tenant AND tv.hash = o.hash;
  v_id := gen_random_uuid();
  INSERT INTO snapshot (id, tenant_id, server_id, content_hash, tool_count, trigger, protocol_version, era, server_version,
                        server_version_changed, notified, auth_context, cache_entry_id, from_cache, ttl_ms, cache_scope,
                        diagnostics, tool_version_ids, surface_version_ids, surface_tracked, diff_summary, taken_at, last_confirmed_at,
                        context_tokens)
  VALUES (v_id, v_tenant, v_server, p->>'contentHash', (p->>'toolCount')::int, p->>'trigger', p->>'protocolVersion', p->>'era', p->>'serverVersion',
          (p->>'serverVersionChanged')::boolean, (p->>'notified')::boolean, p->>'authContext', (p->>'cacheEntryId')::uuid,
          COALESCE((p->>'fromCache')::boolean, false), (p->>'ttlMs')::int, p->>'cacheScope',
          NULLIF(p->'diagnostics', 'null'::jsonb), v_ids, v_sids, COALESCE((p->>'surfaceTracked')::boolean, false),
          NULLIF(p->'diffSummary', 'null'::jsonb), v_at, v_at,
          CASE WHEN v_uncounted = 0 THEN LEAST(v_tokens, 2147483647)::int END);
  INSERT INTO server_session (server_id, tenant_id, last_listed_at, last_change_at, warnings, updated_at)
    VALUES (v_server, v_tenant, v_at, v_at, CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) END, now())
    ON CONFLICT (server_id) DO UPDATE SET last_listed_at = EXCLUDED.last_listed_at, last_change_at = EXCLUDED.last_change_at, updated_at = now(),
      warnings = CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) ELSE server_session.warnings END;
  UPDATE server_cache_use SET snapshot_id = v_id WHERE server_id = v_server AND entry_id = (p->>'cacheEntryId')::uuid;
  PERFORM pg_notify('toolwatch_events', json_build_object('type', 'snapshot:recorded', 'tenantId', v_tenant, 'serverId', v_server, 'snapshotId', v_id)::text);
  RETURN QUERY SELECT 'created'::text, v_id;
END $$;
