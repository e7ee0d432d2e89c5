import { notFound } from '../errors.js';

/**
 * A record of another account answers 404, never 403: a 403 would confirm that the id exists elsewhere.
 * Queries are scoped by account, so most foreign records are simply not found; this is for a record that
 * was loaded by id alone (a reference in a body, a job's payload) before its account was known.
 */
export function notFoundUnlessSameAccount(recordAccountId: string, accountId: string, what: string): void {
  if (recordAccountId !== accountId) throw notFound(what);
}
