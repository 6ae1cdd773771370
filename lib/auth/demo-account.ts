// The seeded demo account: owner of the demo team, never the instance administrator.
export const DEMO_USER_EMAIL = "demo@toolwatch.local";
export const DEMO_USER_NAME = "Demo user";
