// Why a tool list was fetched. Shared by discovery (which fetches), the cache and the store
// (which record it), so none of them imports another for it.
export type SnapshotTrigger = "connect" | "list_changed" | "poll" | "ttl_expiry" | "reconnect" | "relisten" | "manual";
