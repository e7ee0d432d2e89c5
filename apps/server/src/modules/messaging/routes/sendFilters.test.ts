import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import {
  CONVERSATION_STRATEGY_MESSAGE,
  MESSAGE_RECIPIENT_REQUIRED_MESSAGE,
  SEND_FILTER_COMPARATOR_MESSAGE,
  SEND_FILTERS_EMPTY_MATCH_MESSAGE,
  SEND_RECIPIENTS_MAX,
  sendFilterOrderMessage,
  sendFiltersTooManyMessage,
  type SendMessageResult,
} from '@parley/shared';
import { CONTACT_BLOCKED_MESSAGE } from '../../contacts/index.js';
import { contacts } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addContact, addPhoneNumber, messagingCounts, sendingAccount, uniqueSendingTestNumber } from '../../../test/sendingFixtures.js';

/*
 * The hosted product's `filters` ({tags, attributes}) address the account's contacts by tag and attribute,
 * as a campaign's filters and the contact table do; `conversationStrategy` is refused (docs/api.md).
 */
describe.each(testDatabaseKinds)('a send addresses contacts by tag and attribute, on %s', (kind) => {
  const { h } = useRouteHarness(kind);

  async function account() {
    const a = await sendingAccount(h.database.db, { balance: '20' });
    const token = h.tokenFor(a.adminId);
    const send = async (body: object) => {
      const res = await h.call('POST', `/v1/accounts/${a.accountId}/messages`, token, body);
      return { statusCode: res.statusCode, body: res.body, answer: res.statusCode === 200 ? res.json<SendMessageResult>().data : null };
    };
    return { ...a, send };
  }
  const recipientsOf = (answer: SendMessageResult['data'] | null) => (answer?.messages ?? []).map((m) => m.contact.id).sort();

  it('texts the contacts that carry every tag, listing those who cannot be texted, never another account’s', async () => {
    const a = await account();
    const both = await addContact(h.database.db, a.accountId, { tags: ['vip', 'Paris'] });
    const blocked = await addContact(h.database.db, a.accountId, { tags: ['vip', 'Paris'], blockedAt: new Date() });
    await addContact(h.database.db, a.accountId, { tags: ['vip'] });
    const other = await account();
    await addContact(h.database.db, other.accountId, { tags: ['vip', 'Paris'] });

    const sent = await a.send({ filters: { tags: ['vip', 'Paris'] }, template: 'Hi' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(recipientsOf(sent.answer)).toEqual([both.id]);
    expect(sent.answer).toMatchObject({ requested: 2, valid: 1, estimatedPrice: 0.01 });
    expect(sent.answer?.invalid.map((i) => [i.id, i.error.description])).toEqual([[blocked.id, CONTACT_BLOCKED_MESSAGE]]);
    expect((await messagingCounts(h.database.db, other.accountId)).messages).toBe(0);
  });

  it('compares attributes as the contract writes them (=, !=) and as Parley does (contains), ignoring case', async () => {
    const a = await account();
    const paris = await addContact(h.database.db, a.accountId, { attributes: { city: 'Paris', plan: 'gold' } });
    const lyon = await addContact(h.database.db, a.accountId, { attributes: { city: 'Lyon', plan: 'gold' } });
    const none = await addContact(h.database.db, a.accountId, { attributes: {} });

    const equal = await a.send({ filters: { attributes: [{ name: 'city', comparator: '=', value: 'PARIS' }] }, template: 'Hi' });
    expect(recipientsOf(equal.answer)).toEqual([paris.id]);
    // A contact without the attribute does not equal the value (the contact table's rule).
    const unequal = await a.send({ filters: { attributes: [{ name: 'city', comparator: '!=', value: 'paris' }] }, template: 'Hi' });
    expect(recipientsOf(unequal.answer)).toEqual([lyon.id, none.id].sort());
    const both = await a.send({
      filters: { tags: [], attributes: [{ attribute: 'city', comparator: 'contains', value: 'y' }, { name: 'plan', comparator: 'equals', value: 'Gold' }] },
      template: 'Hi',
    });
    expect(recipientsOf(both.answer)).toEqual([lyon.id]);
  });

  it('adds the filters’ contacts to those named, each texted once', async () => {
    const a = await account();
    const tagged = await addContact(h.database.db, a.accountId, { tags: ['vip'] });
    const named = await addContact(h.database.db, a.accountId);
    const sent = await a.send({ contacts: [named.id, tagged.id], filters: { tags: ['vip'] }, template: 'Hi' });
    expect(recipientsOf(sent.answer)).toEqual([named.id, tagged.id].sort());
    expect(sent.answer).toMatchObject({ requested: 2, valid: 2 });
    // Filters naming nothing add nobody: the whole address book is a campaign's.
    const plain = await a.send({ contacts: [named.id], filters: { tags: [], attributes: [] }, template: 'Hi' });
    expect(recipientsOf(plain.answer)).toEqual([named.id]);
  });

  it('takes the contract’s phoneNumberFilter {group: {id}} as Parley’s {group: id}', async () => {
    const a = await account();
    const second = await addPhoneNumber(h.database.db, a.accountId);
    const contact = await addContact(h.database.db, a.accountId);
    const sent = await a.send({ contacts: [contact.id], phoneNumberFilter: { group: { id: second.id } }, template: 'Hi' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.answer?.messages[0]).toMatchObject({ phoneNumberId: second.id, phoneNumber: second.number });
  });

  it('refuses filters it cannot honour, and conversationStrategy, with a clear 400, sending nothing', async () => {
    const a = await account();
    const contact = await addContact(h.database.db, a.accountId, { tags: ['vip'], attributes: { visits: '3' } });
    const cases: [object, number, string][] = [
      [{ filters: { attributes: [{ name: 'visits', comparator: '>', value: '2' }] } }, 400, sendFilterOrderMessage('>')],
      [{ filters: { attributes: [{ name: 'visits', comparator: 'like', value: '2' }] } }, 400, SEND_FILTER_COMPARATOR_MESSAGE],
      [{ filters: { attributes: [{ comparator: '=', value: '3' }] } }, 400, 'filters.attributes.0.name: Required'],
      [{ filters: { tags: ['nobody'] } }, 400, SEND_FILTERS_EMPTY_MATCH_MESSAGE],
      [{ filters: { tags: [] } }, 400, MESSAGE_RECIPIENT_REQUIRED_MESSAGE],
      [{ contacts: [contact.id], conversationStrategy: 'NewConversation' }, 400, `conversationStrategy: ${CONVERSATION_STRATEGY_MESSAGE}`],
    ];
    const before = await messagingCounts(h.database.db, a.accountId);
    for (const [body, status, message] of cases) {
      const res = await a.send({ template: 'Hi', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.body, JSON.stringify(body)).toContain(message);
    }
    expect(await messagingCounts(h.database.db, a.accountId)).toEqual(before);
  });

  it(`refuses filters that come to more than ${String(SEND_RECIPIENTS_MAX)} recipients rather than texting a part of them`, async () => {
    const a = await account();
    const rows = Array.from({ length: SEND_RECIPIENTS_MAX + 1 }, () => ({
      id: uuidv7(),
      accountId: a.accountId,
      mobileNumber: uniqueSendingTestNumber(),
      mobileCountry: 'US',
      tags: ['everyone'],
    }));
    await h.database.db.insert(contacts).values(rows);
    const res = await a.send({ filters: { tags: ['everyone'] }, template: 'Hi' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(sendFiltersTooManyMessage(SEND_RECIPIENTS_MAX));
    expect((await messagingCounts(h.database.db, a.accountId)).messages).toBe(0);
  });
});
