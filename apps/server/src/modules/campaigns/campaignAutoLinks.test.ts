import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { countSegments } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import { accounts, campaignJobs, links, messages } from '../../platform/db/schema/index.js';
import { insertCampaign } from '../../test/campaigns.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';
import { addContact, sendingAccount } from '../../test/sendingFixtures.js';
import { knowSharedDomain } from '../links/index.js';
import { createExecutionIn, lockExecutableCampaign } from './campaignExecutor.js';
import { previewCampaign } from './campaignPreview.js';
import { sendCampaignBatch } from './campaignSender.js';

const DESTINATION = 'https://shop.example.test/autumn/collection?utm_source=sms&utm_medium=campaign&utm_campaign=autumn';

describe.each(testDatabaseKinds)('a campaign with auto link shortening on %s', (kind) => {
  let database: Database;
  const owned: string[] = [];
  useLedgerCheckedDatabase(kind, (d) => (database = d), owned);
  const shared = knowSharedDomain({ shortDomain: 'go.campaigns.example.test', resolver: null, aRecords: [], cname: 'go.campaigns.example.test' }, 'https://hub.example.test');

  it('shortens the text once for the execution: one link, every recipient the same short URL, priced as sent', async () => {
    const a = await sendingAccount(database.db, { balance: '10' });
    owned.push(a.accountId);
    await database.db
      .update(accounts)
      .set({ options: sql`${accounts.options} || ${JSON.stringify({ autoLinkShorten: shared.id })}::jsonb` })
      .where(eq(accounts.id, a.accountId));
    for (let i = 0; i < 3; i += 1) await addContact(database.db, a.accountId);
    const template = `Autumn is here, {{{firstName}}}: ${DESTINATION} - see you soon! ${'Our best picks for the season. '.repeat(2)}`;
    // As written it would take two segments a contact.
    expect(countSegments(template.replace('{{{firstName}}}', 'Alexandra')).segments).toBe(2);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template });

    // Execute Now's preview prices the shortened text, and makes no link.
    expect(await previewCampaign(database.db, a.accountId, campaign.id)).toMatchObject({ contacts: 3, estimatedPrice: '0.0300' });
    expect(await database.db.select().from(links).where(eq(links.accountId, a.accountId))).toEqual([]);

    const job = await database.db.transaction(async (tx) => createExecutionIn(tx, await lockExecutableCampaign(tx, a.accountId, campaign.id, null, new Date()), { userId: null }));
    const made = await database.db.select().from(links).where(eq(links.accountId, a.accountId));
    expect(made).toHaveLength(1);
    const short = `https://go.campaigns.example.test/${made[0]?.code ?? ''}`;
    expect(job.template).toBe(template.replace(DESTINATION, short));
    // The campaign keeps the text as written; the execution holds what is sent.
    expect((await database.db.select().from(campaignJobs).where(eq(campaignJobs.id, job.id)))[0]?.template).toContain(short);

    for (let i = 0; i < 3; i += 1) await sendCampaignBatch(database.db, job.id, { size: 1 });
    const sent = await database.db.select().from(messages).where(eq(messages.jobId, job.id));
    expect(sent).toHaveLength(3);
    for (const m of sent) {
      expect(m.body).toContain(short);
      expect(m.body).not.toContain(DESTINATION);
      expect(m).toMatchObject({ segments: 1, price: '0.0100' });
    }
    expect(await database.db.select().from(links).where(eq(links.accountId, a.accountId))).toHaveLength(1);
    const [done] = await database.db.select().from(campaignJobs).where(eq(campaignJobs.id, job.id));
    expect(done).toMatchObject({ submitted: 3, price: '0.0300' });
  });
});
