-- The ⌘K tool search (lib/search/search-team.ts) filters tool_name_entry with `ILIKE '%term%'` on
-- name and description under a LIMIT. Postgres estimates such a pattern from the column's
-- histogram: with the default 100 buckets, a rare term that happens to match one bucket is taken
-- to match 1 % of the table, and the planner then prefers a sequential scan that it expects to
-- stop early, over the trigram index (a full scan when the term is in fact rare). Measured on the
-- scale test's fixture (200,000 rows, 2 teams × 2,000 servers × 50 tools; the query for
-- "host 1999:"), ANALYZE then EXPLAIN 200 times: the trigram index in 190 of 200 plans at the
-- default, 200 of 200 with 1,000 buckets (the flaky CI failure of 2026-12-07). ANALYZE of that
-- table takes ~1.5 s instead of ~0.3 s.
ALTER TABLE "tool_name_entry" ALTER COLUMN "description" SET STATISTICS 1000, ALTER COLUMN "name" SET STATISTICS 1000;
