import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { featureRequestStatuses } from '@parley/shared';
import { users } from './identity.js';

/*
 * The deployment's feature-request board (docs/featureRequests.md). It belongs to the deployment, not to an
 * account: no account id on these rows.
 */

/** A post on the board. vote_count and comment_count move with their rows, in the same transaction. */
export const featureRequests = pgTable(
  'feature_requests',
  {
    id: uuid('id').primaryKey(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: featureRequestStatuses }).notNull().default('open'),
    /** Null once the author's user is removed: the post stays on the board. */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    voteCount: integer('vote_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('feature_requests_votes_idx').on(sql`${t.voteCount} desc`, sql`${t.createdAt} desc`),
    index('feature_requests_recent_idx').on(sql`${t.createdAt} desc`),
    index('feature_requests_status_idx').on(t.status),
  ],
);

export type FeatureRequestRow = typeof featureRequests.$inferSelect;

/** One vote per user and post: the key makes a second vote a no-op, however many arrive at once. */
export const featureRequestVotes = pgTable(
  'feature_request_votes',
  {
    featureRequestId: uuid('feature_request_id')
      .notNull()
      .references(() => featureRequests.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.featureRequestId, t.userId] }), index('feature_request_votes_user_idx').on(t.userId)],
);

export const featureRequestComments = pgTable(
  'feature_request_comments',
  {
    id: uuid('id').primaryKey(),
    featureRequestId: uuid('feature_request_id')
      .notNull()
      .references(() => featureRequests.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('feature_request_comments_post_idx').on(t.featureRequestId, t.createdAt)],
);

export type FeatureCommentRow = typeof featureRequestComments.$inferSelect;
