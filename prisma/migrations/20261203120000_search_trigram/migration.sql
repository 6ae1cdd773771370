-- Issue 17: the ⌘K search (lib/search/search-team.ts) matches substrings (ILIKE '%q%') of server
-- names, tool names and descriptions, and alert titles. Trigram GIN indexes answer those without
-- reading a team's whole fleet. pg_trgm ships with Postgres (contrib) and is a trusted extension,
-- so the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "mcp_server_name_trgm_idx" ON "mcp_server" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "alert_title_trgm_idx" ON "alert" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "tool_version_name_trgm_idx" ON "tool_version" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "tool_version_description_trgm_idx" ON "tool_version" USING GIN ((definition ->> 'description') gin_trgm_ops) WHERE kind = 'tool';
