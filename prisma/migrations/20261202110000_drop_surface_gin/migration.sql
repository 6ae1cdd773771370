-- Issue 12: every snapshot insert paid a second GIN index update (surface_version_ids) that only
-- the hourly retention prune reads; at 2,000 servers the sweep slowed measurably (bench/RESULTS.md).
DROP INDEX IF EXISTS "snapshot_surface_version_ids_idx";
