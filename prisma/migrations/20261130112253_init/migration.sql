-- CreateEnum
CREATE TYPE "transport_kind" AS ENUM ('stdio', 'streamable_http', 'sse');

-- CreateEnum
CREATE TYPE "session_status" AS ENUM ('pending', 'connecting', 'live', 'polling', 'degraded', 'down', 'stopped');

-- CreateTable
CREATE TABLE "tenant" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mcp_server" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "transport" "transport_kind" NOT NULL,
    "command" TEXT,
    "args" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "cwd" TEXT,
    "env_encrypted" TEXT,
    "url" TEXT,
    "headers_encrypted" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "poll_interval_seconds" INTEGER NOT NULL DEFAULT 300,
    "config_hash" TEXT NOT NULL,
    "demo_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mcp_server_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "server_session" (
    "server_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "status" "session_status" NOT NULL DEFAULT 'pending',
    "status_reason" TEXT,
    "protocol_version" TEXT,
    "era" TEXT,
    "server_info" JSONB,
    "capabilities" JSONB,
    "instructions" TEXT,
    "last_error_code" TEXT,
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),
    "connected_at" TIMESTAMPTZ(3),
    "last_listed_at" TIMESTAMPTZ(3),
    "last_change_at" TIMESTAMPTZ(3),
    "worker_id" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "server_session_pkey" PRIMARY KEY ("server_id")
);

-- CreateTable
CREATE TABLE "session_transition" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" UUID NOT NULL,
    "server_id" UUID NOT NULL,
    "from_status" "session_status",
    "to_status" "session_status" NOT NULL,
    "reason" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_transition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "snapshot" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "server_id" UUID NOT NULL,
    "content_hash" TEXT NOT NULL,
    "tool_count" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "protocol_version" TEXT,
    "era" TEXT,
    "server_version" TEXT,
    "ttl_ms" INTEGER,
    "cache_scope" TEXT,
    "taken_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_confirmed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirm_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "snapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tool_version" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "definition" JSONB NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "snapshot_tool" (
    "tenant_id" UUID NOT NULL,
    "snapshot_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "tool_version_id" UUID NOT NULL,

    CONSTRAINT "snapshot_tool_pkey" PRIMARY KEY ("snapshot_id","position")
);

-- CreateTable
CREATE TABLE "worker_heartbeat" (
    "worker_id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "beat_at" TIMESTAMPTZ(3) NOT NULL,
    "sessions" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "worker_heartbeat_pkey" PRIMARY KEY ("worker_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tenant_slug_key" ON "tenant"("slug");

-- CreateIndex
CREATE INDEX "mcp_server_tenant_id_enabled_idx" ON "mcp_server"("tenant_id", "enabled");

-- CreateIndex
CREATE UNIQUE INDEX "mcp_server_tenant_id_name_key" ON "mcp_server"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "mcp_server_tenant_id_demo_key_key" ON "mcp_server"("tenant_id", "demo_key");

-- CreateIndex
CREATE INDEX "server_session_tenant_id_status_idx" ON "server_session"("tenant_id", "status");

-- CreateIndex
CREATE INDEX "session_transition_tenant_id_server_id_at_idx" ON "session_transition"("tenant_id", "server_id", "at");

-- CreateIndex
CREATE INDEX "snapshot_tenant_id_server_id_taken_at_idx" ON "snapshot"("tenant_id", "server_id", "taken_at" DESC);

-- CreateIndex
CREATE INDEX "tool_version_tenant_id_name_idx" ON "tool_version"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "tool_version_tenant_id_hash_key" ON "tool_version"("tenant_id", "hash");

-- CreateIndex
CREATE INDEX "snapshot_tool_tenant_id_tool_version_id_idx" ON "snapshot_tool"("tenant_id", "tool_version_id");

-- AddForeignKey
ALTER TABLE "mcp_server" ADD CONSTRAINT "mcp_server_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server_session" ADD CONSTRAINT "server_session_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server_session" ADD CONSTRAINT "server_session_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session_transition" ADD CONSTRAINT "session_transition_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session_transition" ADD CONSTRAINT "session_transition_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshot" ADD CONSTRAINT "snapshot_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshot" ADD CONSTRAINT "snapshot_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_version" ADD CONSTRAINT "tool_version_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshot_tool" ADD CONSTRAINT "snapshot_tool_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshot_tool" ADD CONSTRAINT "snapshot_tool_snapshot_id_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "snapshot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshot_tool" ADD CONSTRAINT "snapshot_tool_tool_version_id_fkey" FOREIGN KEY ("tool_version_id") REFERENCES "tool_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
