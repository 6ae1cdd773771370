// Low /api/v1 limits for api-rate-limit.test.ts only: imported before anything reads lib/env
// (which caches the settings on first read), so this suite's product runs with them.
process.env.TOOLWATCH_API_RATE_PER_KEY = "3/8s";
process.env.TOOLWATCH_API_RATE_PER_TEAM = "5/8s";
process.env.TOOLWATCH_API_RATE_PER_USER = "6/8s";
