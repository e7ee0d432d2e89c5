/** What a list call answers: a page of records and where it is in the whole. */
export interface Page<T> {
  data?: T[];
  /** `next` is where the following page starts, on the lists paged by keyset (contacts, messages). */
  pagination?: { totalCount: number; offset: number; limit: number; next?: string };
}

/** Which page to fetch: by `after` (the `next` of the page before) when the list gives one, else by offset. */
export interface PageRequest {
  offset: number;
  limit: number;
  after?: string;
}

/**
 * Every record of a list, page after page: `fetchPage` makes one list call (with the typed client), passing
 * on `offset` and `limit`, and `after` when it is set, and answers its body. A list that names its next page
 * is followed by cursor, so the last page costs what the first does; others by offset. Stops at the total
 * the API reports, or at a short page.
 */
export async function* allPages<T>(fetchPage: (page: PageRequest) => Promise<Page<T>>, limit = 100): AsyncGenerator<T> {
  let offset = 0;
  let after: string | undefined;
  for (;;) {
    const page = await fetchPage(after === undefined ? { offset, limit } : { offset: 0, limit, after });
    const rows = page.data ?? [];
    yield* rows;
    offset += rows.length;
    after = page.pagination?.next;
    const total = page.pagination?.totalCount;
    if (rows.length < limit || rows.length === 0) return;
    if (after === undefined && total !== undefined && offset >= total) return;
  }
}
