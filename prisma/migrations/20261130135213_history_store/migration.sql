-- DropForeignKey
ALTER TABLE "snapshot_tool" DROP CONSTRAINT "snapshot_tool_snapshot_id_fkey";

-- DropForeignKey
ALTER TABLE "snapshot_tool" DROP CONSTRAINT "snapshot_tool_tenant_id_fkey";

-- DropForeignKey
ALTER TABLE "snapshot_tool" DROP CONSTRAINT "snapshot_tool_tool_version_id_fkey";

-- AlterTable
ALTER TABLE "snapshot" ADD COLUMN     "auth_context" TEXT,
ADD COLUMN     "diff_summary" JSONB,
ADD COLUMN     "notified" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "server_version_changed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "tool_version_ids" UUID[];

-- Move each snapshot's tool list from one row per tool into the snapshot row, in server order.
UPDATE "snapshot" s SET "tool_version_ids" = COALESCE(
  (SELECT array_agg(st."tool_version_id" ORDER BY st."position") FROM "snapshot_tool" st WHERE st."snapshot_id" = s."id"),
  '{}'::uuid[]);
UPDATE "snapshot" SET "notified" = true WHERE "trigger" = 'list_changed';

-- DropTable
DROP TABLE "snapshot_tool";

-- CreateIndex
CREATE INDEX "snapshot_tool_version_ids_idx" ON "snapshot" USING GIN ("tool_version_ids");
