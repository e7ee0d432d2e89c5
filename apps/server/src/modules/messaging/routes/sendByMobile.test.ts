import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SendMessageResult } from '@parley/shared';
import { CONTACT_INVALID_MESSAGE } from '../../contacts/index.js';
import { contacts, events } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addContact, balanceOf, messagingCounts, sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../../../test/sendingFixtures.js';

/*
 * Sends name contacts as the hosted product's API does: by id, as {id}, or by mobile, which texts the
 * account's contact with that number or adds it in the send's transaction (docs/api.md).
 */
describe.each(testDatabaseKinds)('a send names contacts by id or by mobile, on %s', (kind) => {
  const { h } = useRouteHarness(kind);
  let account: SendingAccount;
  let token = '';

  beforeAll(async () => {
    account = await sendingAccount(h.database.db, { balance: '5' });
    token = h.tokenFor(account.adminId);
  });

  const send = (body: object) => h.call('POST', `/v1/accounts/${account.accountId}/messages`, token, body);
  const contactsWith = (mobile: string) =>
    h.database.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.accountId, account.accountId), eq(contacts.mobileNumber, mobile)));

  it('texts a new number, adding its contact with the names given and announcing it', async () => {
    const mobile = uniqueSendingTestNumber();
    const res = await send({ contacts: [{ mobile: { number: mobile, country: 'US' }, firstName: 'Chris', lastName: 'Thomson' }], template: 'Hi {{{firstName}}}' });
    expect(res.statusCode, res.body).toBe(200);
    const [added] = await contactsWith(mobile);
    expect(added).toMatchObject({ firstName: 'Chris', lastName: 'Thomson', valid: true });
    const [message] = res.json<SendMessageResult>().data.messages;
    expect(message).toMatchObject({ contact: { id: added?.id }, message: 'Hi Chris' });
    const created = await h.database.db
      .select()
      .from(events)
      .where(and(eq(events.accountId, account.accountId), eq(events.type, 'contactCreated')));
    expect(created.some((e) => JSON.stringify(e.data).includes(added?.id ?? 'none'))).toBe(true);
  });

  it('texts the contact that has the number already, however it is written, and adds no other', async () => {
    const known = await addContact(h.database.db, account.accountId, { firstName: 'Joe' });
    const national = known.mobileNumber.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3');
    const res = await send({ contacts: [{ mobile: { number: national, country: 'US' }, firstName: 'Someone Else' }], template: 'Hello {{{firstName}}}' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SendMessageResult>().data.messages[0]).toMatchObject({ contact: { id: known.id }, message: 'Hello Joe' });
    expect(await contactsWith(known.mobileNumber)).toHaveLength(1);
  });

  it('takes {id} objects and bare ids alike, and a contact named twice gets one message', async () => {
    const one = await addContact(h.database.db, account.accountId);
    const res = await send({ contacts: [{ id: one.id }, one.id, { mobile: { number: one.mobileNumber } }], template: 'Once' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SendMessageResult>().data).toMatchObject({ messages: [{ contact: { id: one.id } }], requested: 1, valid: 1 });
  });

  it('adds nothing when the send is refused: an invalid number, or a balance that cannot pay', async () => {
    const before = await messagingCounts(h.database.db, account.accountId);
    const invalid = await send({ contacts: [{ mobile: { number: '+1234567890', country: 'US' } }], template: 'Hi' });
    // As any send to a contact with an invalid number: refused with the reason, and here nothing is kept.
    expect(invalid.statusCode).toBe(409);
    expect(invalid.json<{ error: { message: string } }>().error.message).toContain(CONTACT_INVALID_MESSAGE);
    expect(await contactsWith('+1234567890')).toHaveLength(0);

    const poor = await sendingAccount(h.database.db, { balance: '0' });
    const mobile = uniqueSendingTestNumber();
    const refused = await h.call('POST', `/v1/accounts/${poor.accountId}/messages`, h.tokenFor(poor.adminId), {
      contacts: [{ mobile: { number: mobile } }],
      template: 'Hi',
    });
    expect(refused.statusCode).toBe(402);
    const added = await h.database.db.select().from(contacts).where(eq(contacts.accountId, poor.accountId));
    expect(added).toHaveLength(0);
    expect(await balanceOf(h.database.db, poor.accountId)).toBe('0.0000');
    expect(await messagingCounts(h.database.db, account.accountId)).toEqual(before);
  });

  it('refuses a recipient that is neither an id nor a mobile, naming the field', async () => {
    for (const contact of ['not-an-id', { firstName: 'No number' }, { mobile: { number: '' } }, 42]) {
      const res = await send({ contacts: [contact], template: 'Hi' });
      expect(res.statusCode, JSON.stringify(contact)).toBe(400);
      expect(res.json<{ error: { code: string; message: string } }>().error).toMatchObject({ code: 'validation_failed' });
      expect(res.body).toContain('contacts');
    }
  });
});
