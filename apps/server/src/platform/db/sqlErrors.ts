/** SQL state of a foreign key violation. */
const FOREIGN_KEY_VIOLATION = '23503';

/** Whether a statement failed on a foreign key: node-postgres's error, or Drizzle's wrapping it as its cause. */
export function isForeignKeyViolation(error: unknown): boolean {
  const cause = error instanceof Error && 'cause' in error ? error.cause : undefined;
  return [error, cause].some((e) => typeof e === 'object' && e !== null && 'code' in e && e.code === FOREIGN_KEY_VIOLATION);
}
