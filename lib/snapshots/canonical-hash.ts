// Content addressing lives in lib/hash (pure, shared by discovery, cache and store); re-exported for the store.
export * from "@/lib/hash/canonical-hash";
