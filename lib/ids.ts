const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids arrive from URLs; a malformed one is "not found", never a database error. */
export const isUuid = (value: string): boolean => UUID.test(value);
