-- CreateIndex
CREATE INDEX "mcp_server_tags_idx" ON "mcp_server" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "alert_tenant_id_created_at_id_idx" ON "alert"("tenant_id", "created_at" DESC, "id" DESC);
