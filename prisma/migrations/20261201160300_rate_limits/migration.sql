-- CreateTable
CREATE TABLE "auth_rate_limit" (
    "id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "last_request" BIGINT NOT NULL,

    CONSTRAINT "auth_rate_limit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_counter" (
    "key" TEXT NOT NULL,
    "window_start" BIGINT NOT NULL,
    "window_ms" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rate_counter_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "auth_rate_limit_key_key" ON "auth_rate_limit"("key");

-- CreateIndex
CREATE INDEX "auth_rate_limit_last_request_idx" ON "auth_rate_limit"("last_request");

-- CreateIndex
CREATE INDEX "rate_counter_window_start_idx" ON "rate_counter"("window_start");
