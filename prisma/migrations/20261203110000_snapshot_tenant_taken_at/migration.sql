-- Issue 17: the overview counts a team's changes per day and lists the latest ones across all its
-- servers; (tenant_id, server_id, taken_at) cannot serve a team-wide time range without visiting
-- every server, this index can.
CREATE INDEX "snapshot_tenant_id_taken_at_idx" ON "snapshot"("tenant_id", "taken_at" DESC);
