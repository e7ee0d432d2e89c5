import { asc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { emptyCampaignFilters, emptyInvalidCounts, type CampaignFilters } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import { campaignJobRecipients, campaigns, contactLists, listMembers, type ContactRow } from '../../platform/db/schema/index.js';
import { insertCampaign } from '../../test/campaigns.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';
import { addContact, sendingAccount, type SendingAccount } from '../../test/sendingFixtures.js';
import { createExecutionIn } from './campaignExecutor.js';
import { previewCampaign } from './campaignPreview.js';

describe.each(testDatabaseKinds)('campaign audience on %s', (kind) => {
  let database: Database;
  const accounts: string[] = [];
  useLedgerCheckedDatabase(kind, (d) => (database = d), accounts);

  interface World {
    a: SendingAccount;
    people: Record<string, ContactRow>;
    lists: { news: string; offers: string };
  }

  /**
   * One account with: ann (vip, gold; city Paris; on news), bob (vip; city PARIS; opted out of news,
   * opted in to offers), cat (gold; city Lyon; on news), dan (no tags, no city; on offers), and the
   * contacts consent leaves out: eve (vip, blocked), fay (vip, opted out with STOP), gus (vip, invalid
   * number), hal (vip, opted out of news, on no other list).
   */
  async function world(): Promise<World> {
    const a = await sendingAccount(database.db, { balance: '10' });
    accounts.push(a.accountId);
    const add = (overrides: Partial<ContactRow>) => addContact(database.db, a.accountId, overrides);
    const people = {
      ann: await add({ firstName: 'Ann', tags: ['vip', 'gold'], attributes: { city: 'Paris' } }),
      bob: await add({ firstName: 'Bob', tags: ['vip'], attributes: { city: 'PARIS' } }),
      cat: await add({ firstName: 'Cat', tags: ['gold'], attributes: { city: 'Lyon' } }),
      dan: await add({ firstName: 'Dan' }),
      eve: await add({ firstName: 'Eve', tags: ['vip'], blockedAt: new Date() }),
      fay: await add({ firstName: 'Fay', tags: ['vip'], optedOutAt: new Date() }),
      gus: await add({ firstName: 'Gus', tags: ['vip'], mobileNumber: '12345', valid: false, errorDescription: 'Too short' }),
      hal: await add({ firstName: 'Hal', tags: ['vip'] }),
    };
    const lists = { news: uuidv7(), offers: uuidv7() };
    await database.db.insert(contactLists).values([
      { id: lists.news, accountId: a.accountId, name: 'News' },
      { id: lists.offers, accountId: a.accountId, name: 'Offers' },
    ]);
    const member = (listId: string, contact: ContactRow, status: 'subscribed' | 'optedIn' | 'optedOut') => ({
      id: uuidv7(),
      accountId: a.accountId,
      listId,
      contactId: contact.id,
      status,
    });
    await database.db.insert(listMembers).values([
      member(lists.news, people.ann, 'subscribed'),
      member(lists.news, people.bob, 'optedOut'),
      member(lists.offers, people.bob, 'optedIn'),
      member(lists.news, people.cat, 'optedIn'),
      member(lists.offers, people.dan, 'subscribed'),
      member(lists.news, people.hal, 'optedOut'),
    ]);
    return { a, people, lists };
  }

  /** The first names an execution with these filters texts, and the preview's counts. */
  async function audience(w: World, filters: Partial<CampaignFilters>) {
    const campaign = await insertCampaign(database.db, w.a.accountId, w.a.numberId, {
      filters: { ...emptyCampaignFilters(), ...filters },
      template: 'Hello',
    });
    const preview = await previewCampaign(database.db, w.a.accountId, campaign.id);
    const job = await database.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(campaigns).where(eq(campaigns.id, campaign.id)).for('update');
      if (!locked) throw new Error('no campaign');
      return createExecutionIn(tx, locked, { userId: null });
    });
    const ids = await database.db
      .select({ contactId: campaignJobRecipients.contactId })
      .from(campaignJobRecipients)
      .where(eq(campaignJobRecipients.jobId, job.id))
      .orderBy(asc(campaignJobRecipients.position));
    const nameOf = new Map(Object.entries(w.people).map(([name, c]) => [c.id, name]));
    const names = ids.map((r) => nameOf.get(r.contactId));
    expect(preview.contacts).toBe(names.length);
    const left = job.invalid.map((e) => `${String(nameOf.get((e.contact as { id: string }).id))}:${String(e.reason)}`);
    return { names, left, counts: preview.invalidCounts, job };
  }

  it('with no filter texts every contact that may be texted, leaving the others out by reason', async () => {
    const w = await world();
    const { names, left, counts, job } = await audience(w, {});
    expect(names).toEqual(['ann', 'bob', 'cat', 'dan', 'hal']);
    expect(left).toEqual(['eve:blocked', 'fay:optedOut', 'gus:invalidNumber']);
    expect(counts).toEqual({ ...emptyInvalidCounts(), blocked: 1, optedOut: 1, invalidNumber: 1 });
    expect(job.invalid).toContainEqual({
      reason: 'invalidNumber',
      description: 'This contact has invalid data. Too short',
      contact: { id: w.people.gus?.id },
      mobile: '12345',
      row: null,
    });
  });

  it('needs every tag given', async () => {
    const w = await world();
    expect((await audience(w, { tags: ['vip'] })).names).toEqual(['ann', 'bob', 'hal']);
    expect((await audience(w, { tags: ['vip', 'gold'] })).names).toEqual(['ann']);
    expect((await audience(w, { tags: ['silver'] })).names).toEqual([]);
  });

  it('compares attributes ignoring case: equals, does not equal (a missing attribute does not equal), contains', async () => {
    const w = await world();
    const city = (comparator: 'equals' | 'notEquals' | 'contains', value: string) => audience(w, { attributes: [{ attribute: 'city', comparator, value }] });
    expect((await city('equals', 'paris')).names).toEqual(['ann', 'bob']);
    expect((await city('notEquals', 'Paris')).names).toEqual(['cat', 'dan', 'hal']);
    expect((await city('contains', 'YO')).names).toEqual(['cat']);
    // Several comparisons must all hold.
    const both = await audience(w, {
      attributes: [
        { attribute: 'city', comparator: 'contains', value: 'ar' },
        { attribute: 'city', comparator: 'notEquals', value: 'PARIS' },
      ],
    });
    expect(both.names).toEqual([]);
  });

  it('takes list members who did not opt out of every chosen list, and counts those who did', async () => {
    const w = await world();
    const news = await audience(w, { lists: [w.lists.news] });
    expect(news.names).toEqual(['ann', 'cat']);
    expect(news.left).toEqual(['bob:listOptedOut', 'hal:listOptedOut']);
    expect(news.counts).toMatchObject({ listOptedOut: 2, blocked: 0 });
    // Bob opted out of News but in to Offers: with both lists chosen, he is texted.
    expect((await audience(w, { lists: [w.lists.news, w.lists.offers] })).names).toEqual(['ann', 'bob', 'cat', 'dan']);
  });

  it('takes the chosen contacts, and holds every kind of filter together', async () => {
    const w = await world();
    const { ann, cat, dan, eve } = w.people;
    if (!ann || !cat || !dan || !eve) throw new Error('no people');
    const chosen = await audience(w, { contacts: [dan.id, ann.id, eve.id] });
    expect(chosen.names).toEqual(['ann', 'dan']);
    expect(chosen.left).toEqual(['eve:blocked']);
    const together = await audience(w, {
      tags: ['gold'],
      attributes: [{ attribute: 'city', comparator: 'equals', value: 'lyon' }],
      lists: [w.lists.news],
      contacts: [ann.id, cat.id, dan.id],
    });
    expect(together.names).toEqual(['cat']);
    expect(together.left).toEqual([]);
  });
});
