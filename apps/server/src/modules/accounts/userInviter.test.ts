import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_NOT_SENT_MESSAGE } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import { createCarrierRegistry } from '../carriers/registry.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { JobQueue } from '../../platform/jobs/queue.js';
import { createLocalMailbox } from '../../platform/mail/localMailbox.js';
import { MailDeliveryError, type Mailer } from '../../platform/mail/mailer.js';
import { testConfig } from '../../test/config.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount, createUser } from '../../test/factories.js';
import { silentLogger } from '../../test/logger.js';
import { mailsTo } from '../../test/mail.js';
import { inviteUser, resendInvitation, ResendGate } from './userInviter.js';
import { createMessageHandlers } from '../messaging/handlers.js';

describe('ResendGate', () => {
  it('lets one send through per invitation per interval, and a released slot at once', () => {
    let now = 1_000_000;
    const gate = new ResendGate(60_000, () => now);
    expect(gate.take('a')).toBe(true);
    expect(gate.take('a')).toBe(false);
    expect(gate.take('b')).toBe(true);
    now += 59_999;
    expect(gate.take('a')).toBe(false);
    now += 1;
    expect(gate.take('a')).toBe(true);
    gate.release('a');
    expect(gate.take('a')).toBe(true);
    expect(gate.take('a')).toBe(false);
  });
});

describe.each(testDatabaseKinds)('resending an invitation on %s', (kind) => {
  let database: Database;
  let ctx: AppContext;
  /** When set, the mailer refuses every message as an unreachable SMTP server would. */
  let failing = false;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const mailbox = createLocalMailbox(database.db);
    const mailer: Mailer = {
      kind: 'mailbox',
      send: (message) =>
        failing ? Promise.reject(new MailDeliveryError(`Could not send e-mail to ${message.to}`)) : mailbox.send(message),
    };
    const log = silentLogger();
    const jobs = new JobQueue({ database, log, work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1 });
    ctx = { config: testConfig(), log, database, jobs, authenticator: { authenticate: () => Promise.resolve(null) }, mailer, carriers: createCarrierRegistry('simulator', { deployment: {} }), carrierHandlers: createMessageHandlers({ database, log: silentLogger() }) };
  });
  afterAll(async () => {
    await database.close();
  });

  it('answers a clear error when the mail does not go out, and allows trying again at once', async () => {
    const admin = await createUser(database.db);
    const account = await createAccount(database.db, { [admin.id]: 'Administrator' });
    const user = { firstName: 'Una', lastName: 'Sent', email: `una-${admin.id.slice(0, 8)}@example.test`, role: 'Sender' as const };
    const invited = await inviteUser(ctx, { accountId: account.id, inviterId: admin.id, user });
    expect(invited.kind).toBe('invitation');
    const invitationId = invited.kind === 'invitation' ? invited.invitationId : '';
    const gate = new ResendGate();
    const input = { accountId: account.id, invitationId, senderId: admin.id };

    failing = true;
    const error = await resendInvitation(ctx, input, gate).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 502, message: INVITATION_NOT_SENT_MESSAGE });
    expect(await mailsTo(database.db, user.email)).toHaveLength(1);

    failing = false;
    await expect(resendInvitation(ctx, input, gate)).resolves.toMatchObject({ kind: 'invitation', email: user.email });
    expect(await mailsTo(database.db, user.email)).toHaveLength(2);
  });
});
