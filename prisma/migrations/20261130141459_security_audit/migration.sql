-- CreateEnum
CREATE TYPE "audit_policy" AS ENUM ('trust_first', 'strict');

-- CreateEnum
CREATE TYPE "alert_kind" AS ENUM ('tool_changed', 'tool_added', 'tool_removed', 'suspicious_content', 'breaking_change', 'name_collision', 'server_down', 'server_recovered', 'list_collapsed');

-- CreateEnum
CREATE TYPE "alert_severity" AS ENUM ('critical', 'high', 'medium', 'low', 'info');

-- CreateEnum
CREATE TYPE "alert_status" AS ENUM ('open', 'acknowledged', 'resolved');

-- AlterTable
ALTER TABLE "mcp_server" ADD COLUMN     "audit_policy" "audit_policy" NOT NULL DEFAULT 'trust_first';

-- CreateTable
CREATE TABLE "tool_baseline" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "server_id" UUID NOT NULL,
    "tool_name" TEXT NOT NULL,
    "approved_hash" TEXT,
    "source" TEXT NOT NULL,
    "approved_by" TEXT,
    "approved_at" TIMESTAMPTZ(3),
    "blocked_hash" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tool_baseline_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "server_id" UUID NOT NULL,
    "kind" "alert_kind" NOT NULL,
    "severity" "alert_severity" NOT NULL,
    "status" "alert_status" NOT NULL DEFAULT 'open',
    "title" TEXT NOT NULL,
    "tool_name" TEXT,
    "candidate_hash" TEXT,
    "baseline_hash" TEXT,
    "snapshot_id" UUID,
    "findings" JSONB NOT NULL DEFAULT '[]',
    "details" JSONB,
    "dedupe_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "acknowledged_at" TIMESTAMPTZ(3),
    "acknowledged_by" TEXT,
    "resolved_at" TIMESTAMPTZ(3),
    "resolved_by" TEXT,
    "resolution" TEXT,
    "comment" TEXT,

    CONSTRAINT "alert_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "format" TEXT NOT NULL DEFAULT 'json',
    "secret_encrypted" TEXT NOT NULL,
    "min_severity" "alert_severity" NOT NULL DEFAULT 'low',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "webhook_id" UUID NOT NULL,
    "alert_id" UUID,
    "event" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "status_code" INTEGER,
    "last_error" TEXT,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tool_baseline_tenant_id_server_id_idx" ON "tool_baseline"("tenant_id", "server_id");

-- CreateIndex
CREATE UNIQUE INDEX "tool_baseline_server_id_tool_name_key" ON "tool_baseline"("server_id", "tool_name");

-- CreateIndex
CREATE INDEX "alert_tenant_id_status_created_at_idx" ON "alert"("tenant_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "alert_tenant_id_server_id_dedupe_key_idx" ON "alert"("tenant_id", "server_id", "dedupe_key");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_tenant_id_name_key" ON "webhook"("tenant_id", "name");

-- CreateIndex
CREATE INDEX "webhook_delivery_tenant_id_webhook_id_created_at_idx" ON "webhook_delivery"("tenant_id", "webhook_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "tool_baseline" ADD CONSTRAINT "tool_baseline_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_baseline" ADD CONSTRAINT "tool_baseline_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert" ADD CONSTRAINT "alert_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert" ADD CONSTRAINT "alert_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook" ADD CONSTRAINT "webhook_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alert"("id") ON DELETE SET NULL ON UPDATE CASCADE;
