import { jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * A lookup provider's latest answer about a number (docs/tools.md): served again for NUMBER_LOOKUP_CACHE_DAYS.
 * Public facts about a number, not an account's: one row per number and kind, whichever account asked.
 * `id` changes with each fresh answer, and keys the charge (`lookup:{kind}:{id}`), so an account pays once
 * per answer it is given.
 */
export const numberLookups = pgTable(
  'number_lookups',
  {
    id: uuid('id').primaryKey(),
    /** E.164. */
    number: text('number').notNull(),
    kind: text('kind', { enum: ['carrier', 'name'] }).notNull(),
    source: text('source', { enum: ['twilio'] }).notNull(),
    /** carrier: { carrier, type }; name: { name }. */
    result: jsonb('result').notNull(),
    lookedUpAt: timestamp('looked_up_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('number_lookups_number_kind_idx').on(t.number, t.kind)],
);

export type NumberLookupRow = typeof numberLookups.$inferSelect;
