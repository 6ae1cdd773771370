// A low share-link limit for share-rate-limit.test.ts only: imported before anything reads lib/env.
process.env.TOOLWATCH_SHARE_RATE_PER_ADDRESS = "3/8s";
