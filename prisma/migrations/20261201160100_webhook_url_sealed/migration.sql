-- AlterTable
ALTER TABLE "webhook" ADD COLUMN     "url_encrypted" TEXT,
ADD COLUMN     "url_masked" TEXT NOT NULL DEFAULT '',
ALTER COLUMN "url" DROP NOT NULL;

-- Rows written before sealing: shown by their origin only until a worker seals their URL on start
-- (sealing needs the instance key, which SQL does not have: lib/webhooks/webhook-url.ts).
UPDATE "webhook" SET "url_masked" = substring("url" from '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*') || '/…' WHERE "url" IS NOT NULL;
