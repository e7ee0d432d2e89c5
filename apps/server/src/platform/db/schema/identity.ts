import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** People who sign in. Emails are stored lowercased, so the unique index is case-insensitive. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull().unique(),
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  /** argon2id (PHC string); null for people who only sign in through a social provider. */
  passwordHash: text('password_hash'),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  mobileNumber: text('mobile_number'),
  mobileCountry: text('mobile_country'),
  tacAcceptedAt: timestamp('tac_accepted_at', { withTimezone: true }),
  communicationConsentAt: timestamp('communication_consent_at', { withTimezone: true }),
  promoCode: text('promo_code'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** Consecutive wrong passwords since the last success or lock. */
  failedSignIns: integer('failed_sign_ins').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  /** One of the deployment's operators (set by `parley operator add`): they run the feature board (docs/featureRequests.md). */
  operator: boolean('operator').notNull().default(false),
});

export type UserRow = typeof users.$inferSelect;

/** What the embedded issuer keeps: sessions, interactions, codes, tokens, grants (the provider's adapter). */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_payloads_grant_idx').on(t.grantId).where(sql`${t.grantId} is not null`),
    index('oidc_payloads_user_code_idx').on(t.model, t.userCode).where(sql`${t.userCode} is not null`),
    index('oidc_payloads_uid_idx').on(t.model, t.uid).where(sql`${t.uid} is not null`),
    index('oidc_payloads_expires_idx').on(t.expiresAt),
  ],
);

/**
 * The embedded issuer's signing keys (private JWKs) and cookie keys, generated at first start and kept,
 * so tokens survive restarts and every process of a deployment signs and checks with the same keys.
 */
export const identityKeys = pgTable('identity_keys', {
  id: text('id').primaryKey(),
  jwks: jsonb('jwks').notNull(),
  cookieKeys: jsonb('cookie_keys').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Confidential clients of the client_credentials grant, one per API credential of an account. */
export const apiClients = pgTable('api_clients', {
  clientId: text('client_id').primaryKey(),
  /** `sha256:<hex>` of the secret; secrets are long random strings, so a fast hash is enough. */
  secretHash: text('secret_hash').notNull(),
  /** The secret's last four characters, so the settings page can tell which secret is in use. */
  secretLastFour: text('secret_last_four'),
  accountId: uuid('account_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type ApiClientRow = typeof apiClients.$inferSelect;

/** One-time links sent by e-mail: verify an address, reset a password. Only a hash of the token is kept. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('user_tokens_user_idx').on(t.userId, t.purpose)],
);

export type UserTokenRow = typeof userTokens.$inferSelect;

/** A person's link to an upstream OpenID Connect provider (social sign-in): provider id and its `sub`. */
export const userIdentities = pgTable(
  'user_identities',
  {
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index('user_identities_user_idx').on(t.userId)],
);
