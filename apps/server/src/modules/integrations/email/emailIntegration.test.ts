import { createHmac } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMail, Integration } from '@parley/shared';
import { DEPLOYMENT_SIMULATOR } from '../../carriers/registry.js';
import { expandEventRows } from '../../messaging/index.js';
import { receiveInbound } from '../../messaging/inbound.js';
import { contacts, mailboxMessages, messages } from '../../../platform/db/schema/index.js';
import { OutboxDispatcher } from '../../../platform/events/outboxDispatcher.js';
import { addMember } from '../../../test/conversations.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { silentLogger } from '../../../test/logger.js';
import { sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../../../test/sendingFixtures.js';
import { NOTHING_TO_SEND, SENDER_NOT_ALLOWED } from './inboundMail.js';
import { EmailReplySubscriber } from './replySubscriber.js';
import { MAIL_DOMAIN, startEmailHarness, WEBHOOK_SECRET, type EmailHarness } from './test/emailHarness.js';

const base = (accountId: string): string => `/v1/accounts/${accountId}/integrations/email`;
const digitsOf = (mobile: string): string => mobile.replace(/\D/g, '');

describe.each(testDatabaseKinds)('the Email integration (%s)', (kind) => {
  let h: EmailHarness;
  beforeAll(async () => {
    h = await startEmailHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  /** An account with a number and credit, Email connected for `senders`; its token and an admin's API token. */
  async function connected(senders: string[] = ['@acme.test']): Promise<SendingAccount & { token: string; admin: string }> {
    const account = await sendingAccount(h.database.db);
    const admin = h.tokenFor(account.adminId);
    const res = await h.call('POST', `${base(account.accountId)}/connect`, admin, {});
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: Integration }>().data;
    const token = data.connection?.token ?? '';
    expect(data.connection?.address).toBe(`${token}@${MAIL_DOMAIN}`);
    expect((await h.call('PUT', `${base(account.accountId)}/properties`, admin, { allowedSenders: senders })).statusCode).toBe(200);
    return { ...account, token, admin };
  }

  const log = async (accountId: string, token: string): Promise<InboundMail[]> => (await h.call('GET', `${base(accountId)}/mails`, token)).json<{ data: InboundMail[] }>().data;
  const queuedTo = (accountId: string) =>
    h.database.db
      .select({ text: messages.body, mobile: contacts.mobileNumber, status: messages.status })
      .from(messages)
      .innerJoin(contacts, eq(contacts.id, messages.contactId))
      .where(and(eq(messages.accountId, accountId), eq(messages.direction, 'outbound')));

  it('lets only administrators connect, checks the allowed senders, and a new connect rotates the token', async () => {
    const account = await sendingAccount(h.database.db);
    const reader = h.tokenFor(await addMember(h.database.db, account.accountId, 'ReadOnly'));
    expect((await h.call('POST', `${base(account.accountId)}/connect`, reader, {})).statusCode).toBe(403);
    const admin = h.tokenFor(account.adminId);
    const first = (await h.call('POST', `${base(account.accountId)}/connect`, admin, {})).json<{ data: Integration }>().data;
    expect(first).toMatchObject({ available: true, status: 'connected', properties: { allowedSenders: [], senderNumberId: '' } });
    const bad = await h.call('PUT', `${base(account.accountId)}/properties`, admin, { allowedSenders: ['not an address'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { message: string } }>().error.message).toBe('allowedSenders.0: Enter an e-mail address or @domain');
    const again = (await h.call('POST', `${base(account.accountId)}/connect`, admin, {})).json<{ data: Integration }>().data;
    expect(again.connection?.token).not.toBe(first.connection?.token);
    expect((await h.call('GET', `${base(account.accountId)}/mails`, reader)).statusCode).toBe(200);
  });

  it('texts the stripped mail of an allowed sender to the number and records it; the reply comes back threaded', async () => {
    const account = await connected();
    const mobile = uniqueSendingTestNumber();
    const to = `${digitsOf(mobile)}.${account.token}@${MAIL_DOMAIN}`;
    const info = await h.smtp.sendMail({
      from: 'Ann Ops <ann@acme.test>',
      to,
      subject: 'Delivery window',
      text: 'Your parcel arrives between 2 and 4 pm.\n\n-- \nAnn, Acme Ops\n\nOn Tue, Dec 1, 2026 at 9:00 AM Bob <bob@x.test> wrote:\n> earlier text',
      headers: { 'Authentication-Results': 'mx.in.parley.test; spf=pass smtp.mailfrom=acme.test; dkim=pass header.d=acme.test' },
    });
    expect(info.accepted).toEqual([to]);
    expect(await queuedTo(account.accountId)).toEqual([{ text: 'Your parcel arrives between 2 and 4 pm.', mobile, status: 'queued' }]);
    const [entry] = await log(account.accountId, account.admin);
    expect(entry).toMatchObject({ from: 'ann@acme.test', to, subject: 'Delivery window', result: 'sent', mobile, authentication: { spf: 'pass', dkim: 'pass', mailFrom: 'ann@acme.test', remoteAddress: '127.0.0.1' } });

    await receiveInbound(h.database, DEPLOYMENT_SIMULATOR, { carrierMessageId: crypto.randomUUID(), from: mobile, to: account.number, text: 'Thanks, 3 pm works', media: [], receivedAt: new Date() }, silentLogger());
    const dispatcher = new OutboxDispatcher(h.database, [new EmailReplySubscriber(h.jobs, h.replyJob)], silentLogger(), { expand: expandEventRows });
    while (await dispatcher.dispatchOnce());
    await h.runReplies();
    const [reply] = await h.database.db.select().from(mailboxMessages).where(eq(mailboxMessages.recipient, 'ann@acme.test')).orderBy(desc(mailboxMessages.id)).limit(1);
    expect(reply).toMatchObject({ subject: 'Re: Delivery window', text: 'Thanks, 3 pm works', sender: to, headers: { 'In-Reply-To': info.messageId, References: info.messageId } });
  });

  it('refuses an unknown sender, an unknown token and a mail with nothing left to send, and records the refusals', async () => {
    const account = await connected(['ann@acme.test']);
    const to = `${digitsOf(uniqueSendingTestNumber())}.${account.token}@${MAIL_DOMAIN}`;
    await expect(h.smtp.sendMail({ from: 'eve@evil.test', to, subject: 'Hi', text: 'Hello' })).rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining(SENDER_NOT_ALLOWED) as unknown });
    // The envelope is allowed, the header From is not.
    await expect(h.smtp.sendMail({ envelope: { from: 'ann@acme.test', to }, from: 'eve@evil.test', to, subject: 'Hi', text: 'Hello' })).rejects.toMatchObject({ responseCode: 550 });
    await expect(h.smtp.sendMail({ from: 'ann@acme.test', to: `15550001111.nosuchtoken@${MAIL_DOMAIN}`, text: 'Hello' })).rejects.toMatchObject({ responseCode: 550 });
    await expect(h.smtp.sendMail({ from: 'ann@acme.test', to, subject: 'Hi', text: '> only a quote\n\nSent from my iPhone' })).rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining(NOTHING_TO_SEND) as unknown });
    const entries = await log(account.accountId, account.admin);
    expect(entries.map((e) => [e.from, e.result, e.reason])).toEqual([
      ['ann@acme.test', 'refused', NOTHING_TO_SEND],
      ['eve@evil.test', 'refused', SENDER_NOT_ALLOWED],
      ['eve@evil.test', 'refused', SENDER_NOT_ALLOWED],
    ]);
    expect(await queuedTo(account.accountId)).toEqual([]);
  });

  it('refuses a text to an opted-out contact and mails the reason back', async () => {
    const account = await connected();
    const mobile = uniqueSendingTestNumber();
    await h.database.db.insert(contacts).values({ id: crypto.randomUUID(), accountId: account.accountId, mobileNumber: mobile, mobileCountry: 'US', optedOutAt: new Date() });
    const to = `${digitsOf(mobile)}.${account.token}@${MAIL_DOMAIN}`;
    await h.smtp.sendMail({ from: 'bo@acme.test', to, subject: 'Promo', text: 'Hello again' });
    const [entry] = await log(account.accountId, account.admin);
    expect(entry).toMatchObject({ result: 'refused', mobile });
    const [bounce] = await h.database.db.select().from(mailboxMessages).where(eq(mailboxMessages.recipient, 'bo@acme.test')).limit(1);
    expect(bounce?.subject).toBe('Re: Promo');
    expect(bounce?.text).toBe(`Your message to ${mobile} was not sent: ${entry?.reason ?? ''}`);
    expect(await queuedTo(account.accountId)).toEqual([]);
  });

  it('takes a signed mail through the webhook door and refuses an unsigned or forged one', async () => {
    const account = await connected();
    const mobile = uniqueSendingTestNumber();
    const raw = Buffer.from(`From: Ann <ann@acme.test>\r\nTo: x@${MAIL_DOMAIN}\r\nSubject: ${mobile}\r\nMessage-ID: <hook-1@acme.test>\r\n\r\nRelayed text\r\n`);
    const sign = (body: Buffer): string => `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    const post = (body: Buffer, signature?: string) =>
      h.app.inject({
        method: 'POST',
        url: '/v1/integrations/email/inbound',
        headers: { 'content-type': 'message/rfc822', 'x-parley-recipient': `${account.token}@${MAIL_DOMAIN}`, ...(signature === undefined ? {} : { 'x-parley-signature': signature }) },
        payload: body,
      });
    expect((await post(raw)).statusCode).toBe(401);
    expect((await post(Buffer.from(raw.toString().replace('Relayed', 'Forged')), sign(raw))).statusCode).toBe(401);
    expect(await queuedTo(account.accountId)).toEqual([]);
    const res = await post(raw, sign(raw));
    expect(res.statusCode).toBe(200);
    expect(await queuedTo(account.accountId)).toEqual([{ text: 'Relayed text', mobile, status: 'queued' }]);
    const [entry] = await log(account.accountId, account.admin);
    expect(entry).toMatchObject({ via: 'webhook', result: 'sent', mobile });
    const rows = await h.database.db.select().from(contacts).where(and(eq(contacts.accountId, account.accountId), eq(contacts.mobileNumber, mobile)));
    expect(rows).toHaveLength(1);
  });
});
