import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  CARRIER_CONNECTION_CARRIER_FIXED_MESSAGE,
  CARRIER_CONNECTION_IN_USE_MESSAGE,
  type CreateCarrierConnection,
  type UpdateCarrierConnection,
} from '@parley/shared';
import { secretContext, storedSettings, type ConnectionSettings } from './connections.js';
import type { SecretsConfig } from '../../platform/config.js';
import type { Db, Queryable } from '../../platform/db/client.js';
import { carrierSettings, phoneNumbers, type CarrierSettingsRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { SecretCipher } from '../../platform/secrets/cipher.js';
import { storingCipher } from '../../platform/secrets/keyring.js';

/**
 * Writes accounts' own carrier connections. The secret is encrypted before it reaches a statement, bound to
 * its row's id; nothing here returns it in clear except to the presenter, which masks it.
 */

const CONNECTION = 'The carrier connection';

export interface ConnectionWithUse {
  row: CarrierSettingsRow;
  /** Numbers (not released) sending through it. */
  phoneNumbers: number;
}

/** The key, or a 409 naming SECRETS_KEY when the deployment has none (PostgreSQL without it). */
export function cipherFor(secrets: SecretsConfig): Promise<SecretCipher> {
  return storingCipher(secrets);
}

function settingsOf(input: CreateCarrierConnection | UpdateCarrierConnection): ConnectionSettings {
  switch (input.carrier) {
    case 'smpp':
      return { carrier: 'smpp', ...input.settings };
    case 'twilio':
      return { carrier: 'twilio', ...input.settings };
  }
}

async function numbersUsing(q: Queryable, accountId: string, ids: readonly string[]): Promise<Map<string, number>> {
  const used = new Map<string, number>();
  if (ids.length === 0) return used;
  const rows = await q
    .select({ id: phoneNumbers.carrierSettingsId, n: count() })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), inArray(phoneNumbers.carrierSettingsId, [...ids]), ne(phoneNumbers.status, 'released')))
    .groupBy(phoneNumbers.carrierSettingsId);
  for (const row of rows) if (row.id !== null) used.set(row.id, row.n);
  return used;
}

export async function listConnections(
  q: Queryable,
  accountId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: ConnectionWithUse[]; totalCount: number }> {
  const [total] = await q.select({ n: count() }).from(carrierSettings).where(eq(carrierSettings.accountId, accountId));
  const rows = await q
    .select()
    .from(carrierSettings)
    .where(eq(carrierSettings.accountId, accountId))
    .orderBy(asc(carrierSettings.createdAt), asc(carrierSettings.id))
    .offset(page.offset)
    .limit(page.limit);
  const used = await numbersUsing(q, accountId, rows.map((row) => row.id));
  return { rows: rows.map((row) => ({ row, phoneNumbers: used.get(row.id) ?? 0 })), totalCount: total?.n ?? 0 };
}

/** How many connections of this carrier the account has. */
export async function countAccountConnections(q: Queryable, accountId: string, carrier: 'smpp' | 'twilio'): Promise<number> {
  const [row] = await q.select({ n: count() }).from(carrierSettings).where(and(eq(carrierSettings.accountId, accountId), eq(carrierSettings.carrier, carrier)));
  return row?.n ?? 0;
}

export async function findConnection(q: Queryable, accountId: string, id: string, lock = false): Promise<CarrierSettingsRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const query = q
    .select()
    .from(carrierSettings)
    .where(and(eq(carrierSettings.accountId, accountId), eq(carrierSettings.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function connectionWithUse(q: Queryable, accountId: string, id: string): Promise<ConnectionWithUse> {
  const row = await findConnection(q, accountId, id);
  if (!row) throw notFound(CONNECTION);
  return { row, phoneNumbers: (await numbersUsing(q, accountId, [id])).get(id) ?? 0 };
}

export async function createConnection(
  db: Db,
  cipher: SecretCipher,
  accountId: string,
  input: CreateCarrierConnection,
): Promise<ConnectionWithUse> {
  const id = uuidv7();
  const [row] = await db
    .insert(carrierSettings)
    .values({
      id,
      accountId,
      carrier: input.carrier,
      name: input.name,
      settings: storedSettings(settingsOf(input)),
      secret: cipher.encrypt(input.secret, secretContext(id)),
    })
    .returning();
  if (!row) throw new Error('the carrier connection was not written');
  return { row, phoneNumbers: 0 };
}

/** The whole connection; the stored secret is kept when none is given. The carrier cannot change. */
export function updateConnection(
  db: Db,
  cipherOf: () => Promise<SecretCipher>,
  accountId: string,
  id: string,
  input: UpdateCarrierConnection,
): Promise<{ connection: ConnectionWithUse; cipher: SecretCipher }> {
  return db.transaction(async (tx) => {
    const current = await findConnection(tx, accountId, id, true);
    if (!current) throw notFound(CONNECTION);
    if (current.carrier !== input.carrier) throw new AppError(409, 'conflict', CARRIER_CONNECTION_CARRIER_FIXED_MESSAGE);
    // Only now: another account's id answers 404 whatever the deployment's key.
    const cipher = await cipherOf();
    const [row] = await tx
      .update(carrierSettings)
      .set({
        name: input.name,
        settings: storedSettings(settingsOf(input)),
        ...(input.secret === undefined ? {} : { secret: cipher.encrypt(input.secret, secretContext(id)) }),
        // Adapters compare it to notice the change (modules/carriers/deployment.ts); clock_timestamp moves within a transaction too.
        updatedAt: sql`clock_timestamp()`,
      })
      .where(and(eq(carrierSettings.accountId, accountId), eq(carrierSettings.id, id)))
      .returning();
    if (!row) throw notFound(CONNECTION);
      return { connection: { row, phoneNumbers: (await numbersUsing(tx, accountId, [id])).get(id) ?? 0 }, cipher };
  });
}

/**
 * Removes a connection no number sends through. Released numbers keep no tie to it (they never send
 * again), so their reference is cleared rather than holding the connection forever.
 */
export function removeConnection(db: Db, accountId: string, id: string): Promise<void> {
  return db.transaction(async (tx) => {
    const current = await findConnection(tx, accountId, id, true);
    if (!current) throw notFound(CONNECTION);
    if (((await numbersUsing(tx, accountId, [id])).get(id) ?? 0) > 0) throw new AppError(409, 'conflict', CARRIER_CONNECTION_IN_USE_MESSAGE);
    await tx
      .update(phoneNumbers)
      .set({ carrierSettingsId: null })
      .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.carrierSettingsId, id), eq(phoneNumbers.status, 'released')));
    await tx.delete(carrierSettings).where(and(eq(carrierSettings.accountId, accountId), eq(carrierSettings.id, id)));
  });
}
