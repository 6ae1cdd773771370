-- AlterEnum
ALTER TYPE "alert_kind" ADD VALUE 'cache_divergence';

-- AlterTable
ALTER TABLE "snapshot" ADD COLUMN     "cache_entry_id" UUID,
ADD COLUMN     "from_cache" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "tool_list_cache_entry" (
    "id" UUID NOT NULL,
    "endpoint_key" TEXT NOT NULL,
    "auth_context" TEXT NOT NULL,
    "partition" TEXT NOT NULL,
    "tenant_id" UUID,
    "scope" TEXT,
    "ttl_ms" INTEGER,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "invalidated_at" TIMESTAMPTZ(3),
    "invalidated_by" TEXT,
    "list_hash" TEXT NOT NULL,
    "tool_count" INTEGER NOT NULL,
    "listing" JSONB NOT NULL,
    "fetch_count" INTEGER NOT NULL DEFAULT 1,
    "last_reason" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_list_cache_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "server_cache_use" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "server_id" UUID NOT NULL,
    "entry_id" UUID NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "misses" INTEGER NOT NULL DEFAULT 0,
    "refreshes" INTEGER NOT NULL DEFAULT 0,
    "last_outcome" TEXT NOT NULL,
    "last_reason" TEXT NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL,
    "snapshot_id" UUID,

    CONSTRAINT "server_cache_use_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tool_list_cache_entry_endpoint_key_scope_idx" ON "tool_list_cache_entry"("endpoint_key", "scope");

-- CreateIndex
CREATE INDEX "tool_list_cache_entry_tenant_id_idx" ON "tool_list_cache_entry"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "tool_list_cache_entry_endpoint_key_auth_context_partition_key" ON "tool_list_cache_entry"("endpoint_key", "auth_context", "partition");

-- CreateIndex
CREATE INDEX "server_cache_use_tenant_id_server_id_last_at_idx" ON "server_cache_use"("tenant_id", "server_id", "last_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "server_cache_use_server_id_entry_id_key" ON "server_cache_use"("server_id", "entry_id");

-- AddForeignKey
ALTER TABLE "tool_list_cache_entry" ADD CONSTRAINT "tool_list_cache_entry_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server_cache_use" ADD CONSTRAINT "server_cache_use_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server_cache_use" ADD CONSTRAINT "server_cache_use_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server_cache_use" ADD CONSTRAINT "server_cache_use_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "tool_list_cache_entry"("id") ON DELETE CASCADE ON UPDATE CASCADE;
