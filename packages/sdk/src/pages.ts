/** What a list call answers: a page of records and where it is in the whole. */
export interface Page<T> {
  data?: T[];
  pagination?: { totalCount: number; offset: number; limit: number };
}

/**
 * Every record of a list, page after page: `fetchPage(offset, limit)` makes one list call (with the
 * typed client) and answers its body. Stops at the total the API reports, or at a short page.
 */
export async function* allPages<T>(fetchPage: (offset: number, limit: number) => Promise<Page<T>>, limit = 100): AsyncGenerator<T> {
  let offset = 0;
  for (;;) {
    const page = await fetchPage(offset, limit);
    const rows = page.data ?? [];
    yield* rows;
    offset += rows.length;
    const total = page.pagination?.totalCount;
    if (rows.length < limit || rows.length === 0 || (total !== undefined && offset >= total)) return;
  }
}
