const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `id` is a UUID as the database writes one (any version). A query by a malformed id finds nothing,
 * like another account's, instead of failing on the uuid cast.
 */
export const isUuid = (id: string): boolean => uuidPattern.test(id);
