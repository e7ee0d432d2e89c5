import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { SendMessageResult } from '@parley/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { contacts, idempotencyKeys } from '../db/schema/index.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { useRouteHarness } from '../../test/routeHarness.js';
import { balanceOf, messagingCounts, sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../../test/sendingFixtures.js';
import {
  IDEMPOTENCY_KEY_IN_PROGRESS_MESSAGE,
  IDEMPOTENCY_KEY_INVALID_MESSAGE,
  IDEMPOTENCY_KEY_REUSED_MESSAGE,
  pruneIdempotencyKeysJob,
} from './idempotency.js';

describe.each(testDatabaseKinds)('Idempotency-Key on POSTs, on %s', (kind) => {
  const { h } = useRouteHarness(kind);
  let account: SendingAccount;
  let token = '';

  beforeAll(async () => {
    account = await sendingAccount(h.database.db, { balance: '5' });
    token = h.tokenFor(account.adminId);
  });

  const post = (path: string, body: object, key?: string, as = token): Promise<LightMyRequestResponse> =>
    h.app.inject({
      method: 'POST',
      url: `/v1/accounts/${account.accountId}${path}`,
      headers: { authorization: `Bearer ${as}`, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload: body,
    });
  const contactsWith = (mobile: string) =>
    h.database.db.select().from(contacts).where(and(eq(contacts.accountId, account.accountId), eq(contacts.mobileNumber, mobile)));
  const errorOf = (res: LightMyRequestResponse) => res.json<{ error: { code: string; message: string } }>().error;

  it('answers a retried send with the first answer, and texts and charges once', async () => {
    const key = randomUUID();
    const body = { contacts: [{ mobile: { number: uniqueSendingTestNumber() } }], template: 'Once only' };
    const before = await messagingCounts(h.database.db, account.accountId);
    const first = await post('/messages', body, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<SendMessageResult>().data).toMatchObject({ requested: 1, valid: 1, invalid: [] });
    const again = await post('/messages', body, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    const after = await messagingCounts(h.database.db, account.accountId);
    expect(after.messages - before.messages).toBe(1);
    expect(after.ledger - before.ledger).toBe(1);
    // Without a key, the same body is a new send.
    const unkeyed = await post('/messages', body);
    expect(unkeyed.statusCode).toBe(200);
    expect((await messagingCounts(h.database.db, account.accountId)).messages - before.messages).toBe(2);
  });

  it('replays a refusal too, and refuses the key with another request, changing nothing', async () => {
    const key = randomUUID();
    const mobile = uniqueSendingTestNumber();
    const created = await post('/contacts', { mobile: { number: mobile }, firstName: 'Ann' }, key);
    expect(created.statusCode, created.body).toBe(201);
    const other = await post('/contacts', { mobile: { number: uniqueSendingTestNumber() }, firstName: 'Bob' }, key);
    expect(other.statusCode).toBe(409);
    expect(errorOf(other).message).toBe(IDEMPOTENCY_KEY_REUSED_MESSAGE);
    const elsewhere = await post('/messages', { contacts: [{ mobile: { number: mobile } }], template: 'Hi' }, key);
    expect(errorOf(elsewhere).message).toBe(IDEMPOTENCY_KEY_REUSED_MESSAGE);
    expect(await contactsWith(mobile)).toHaveLength(1);

    const duplicateKey = randomUUID();
    const duplicate = await post('/contacts', { mobile: { number: mobile } }, duplicateKey);
    expect(duplicate.statusCode).toBe(409);
    const replayed = await post('/contacts', { mobile: { number: mobile } }, duplicateKey);
    expect(replayed.statusCode).toBe(409);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(duplicate.body);
  });

  it("keeps each caller's keys apart", async () => {
    const key = randomUUID();
    const colleague = randomUUID();
    await h.database.db.execute(sql`insert into users (id, email, email_verified_at) values (${colleague}, ${`${colleague}@example.test`}, now())`);
    await h.database.db.execute(sql`insert into account_members (account_id, user_id, role) values (${account.accountId}, ${colleague}, 'Administrator')`);
    const mine = await post('/contacts', { mobile: { number: uniqueSendingTestNumber() } }, key);
    const theirs = await post('/contacts', { mobile: { number: uniqueSendingTestNumber() } }, key, h.tokenFor(colleague));
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a retry while the first request is being answered, and a retry after its holder died is still never charged twice', async () => {
    const key = randomUUID();
    const body = { contacts: [{ mobile: { number: uniqueSendingTestNumber() } }], template: 'Held' };
    const first = await post('/messages', body, key);
    expect(first.statusCode, first.body).toBe(200);
    const row = and(eq(idempotencyKeys.accountId, account.accountId), eq(idempotencyKeys.key, key));
    // As while the first request is still running.
    await h.database.db.update(idempotencyKeys).set({ status: null, responseBody: null }).where(row);
    const busy = await post('/messages', body, key);
    expect(busy.statusCode).toBe(409);
    expect(errorOf(busy).message).toBe(IDEMPOTENCY_KEY_IN_PROGRESS_MESSAGE);
    // As when its process died after the send committed and before the answer was kept.
    await h.database.db.update(idempotencyKeys).set({ startedAt: new Date(Date.now() - 10 * 60_000) }).where(row);
    const balance = await balanceOf(h.database.db, account.accountId);
    const messages = (await messagingCounts(h.database.db, account.accountId)).messages;
    const retried = await post('/messages', body, key);
    expect(retried.statusCode).toBe(409);
    expect(await balanceOf(h.database.db, account.accountId)).toBe(balance);
    expect((await messagingCounts(h.database.db, account.accountId)).messages).toBe(messages);
  });

  it('refuses a key that is not 1 to 255 visible characters', async () => {
    for (const key of ['', 'has space', 'x'.repeat(256), 'é']) {
      const res = await post('/contacts', { mobile: { number: uniqueSendingTestNumber() } }, key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(errorOf(res).message).toBe(IDEMPOTENCY_KEY_INVALID_MESSAGE);
    }
  });

  it('forgets keys after 24 hours', async () => {
    const key = randomUUID();
    expect((await post('/contacts', { mobile: { number: uniqueSendingTestNumber() } }, key)).statusCode).toBe(201);
    const job = pruneIdempotencyKeysJob(h.database);
    const ctx = { jobId: 'test', retryCount: 0, log: silentLogger(), signal: new AbortController().signal };
    await job.handler({}, ctx);
    const row = and(eq(idempotencyKeys.accountId, account.accountId), eq(idempotencyKeys.key, key));
    expect(await h.database.db.select().from(idempotencyKeys).where(row)).toHaveLength(1);
    await h.database.db.update(idempotencyKeys).set({ createdAt: new Date(Date.now() - 25 * 3_600_000) }).where(row);
    await job.handler({}, ctx);
    expect(await h.database.db.select().from(idempotencyKeys).where(row)).toHaveLength(0);
  });
});
