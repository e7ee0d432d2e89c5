import { z } from 'zod';
import { validationMessages } from '../validation.js';

/** Tables page by 10; a list call may ask for up to 100 rows. */
export const DEFAULT_PAGE_LIMIT = 10;
export const MAX_PAGE_LIMIT = 100;

/** `?limit=&offset=` of every list call. */
export const listQuerySchema = z.object({
  limit: z.coerce
    .number({ message: validationMessages.number })
    .int({ message: validationMessages.number })
    .min(1, { message: 'Minimum value is 1' })
    .max(MAX_PAGE_LIMIT, { message: `Maximum value is ${MAX_PAGE_LIMIT}` })
    .default(DEFAULT_PAGE_LIMIT),
  offset: z.coerce
    .number({ message: validationMessages.number })
    .int({ message: validationMessages.number })
    .min(0, { message: 'Minimum value is 0' })
    .default(0),
});

export type ListQuery = z.output<typeof listQuerySchema>;

export const paginationSchema = z
  .object({
    totalCount: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
    /** Where the next page starts, for lists paged by keyset (contacts, messages): send it back as `after`. */
    next: z.string().optional(),
  })
  .meta({ id: 'Pagination' });

/**
 * `?after=` of a list paged by keyset: the `next` of the page before. It starts the page after that row
 * however deep it is (an offset makes the database count its way there), and a row added meanwhile never
 * shifts a page.
 */
export const cursorQuery = z.string().min(1).max(2000).optional();
export const CURSOR_WITH_OFFSET_MESSAGE = 'Use either offset or after, not both';

export type Pagination = z.infer<typeof paginationSchema>;

/** `{ data: [...], pagination }`, the answer of every list call. */
export const listResponse = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), pagination: paginationSchema });

/** `{ data }`, the answer of every single-record call. */
export const recordResponse = <T extends z.ZodType>(item: T) => z.object({ data: item });

/**
 * `{ success: true, data: [...] }`, the answer of a create where the hosted product's API answers the records
 * made as a list (a contact, a template): one record, in a list of one.
 */
export const createdListResponse = <T extends z.ZodType>(item: T) => z.object({ success: z.literal(true), data: z.array(item) });

/** `{ success: true }`, the answer of a removal (the hosted product's API answers 200 with it, not 204). */
export const successResponseSchema = z.object({ success: z.literal(true) }).meta({ id: 'Success' });

export type SuccessResponse = z.infer<typeof successResponseSchema>;
