import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { campaignJobs } from '../../platform/db/schema/index.js';
import { addConversation, addMessage } from '../../test/conversations.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { sendingAccount } from '../../test/sendingFixtures.js';
import { insertTemplate } from '../../test/templates.js';
import { findMessageReferences, heldOutsideMessages } from './mediaReferences.js';
import { accountMediaUrl } from './urls.js';

const PUBLIC_URL = 'https://parley.example.test';
const item = (accountId: string, fileId: string) => ({ url: accountMediaUrl(PUBLIC_URL, accountId, fileId), type: 'image/png', filename: 'a.png' });

describe.each(testDatabaseKinds)('media references on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('finds the message holding each file, chunk after chunk, through messages written at the same instant', async () => {
    const account = await sendingAccount(database.db);
    const conversation = await addConversation(database.db, account);
    const [early, late, nowhere] = [uuidv7(), uuidv7(), uuidv7()];
    const at = new Date('2025-01-01T00:00:00.123Z');
    const written = [];
    // Seven messages with one time: the chunks of two must go on by id.
    for (let i = 0; i < 7; i += 1) {
      const media = i === 1 ? [item(account.accountId, early)] : i === 6 ? [item(account.accountId, late.toUpperCase())] : [];
      written.push(await addMessage(database.db, account, conversation, { createdAt: at, media }));
    }
    const found = await findMessageReferences(database.db, account.accountId, [early, late, nowhere], new Date('2024-12-31T00:00:00Z'), { chunk: 2 });
    expect(Object.fromEntries(found)).toEqual({ [early]: written[1]?.id, [late]: written[6]?.id });

    // Messages before `from`, and another account's, do not count.
    expect((await findMessageReferences(database.db, account.accountId, [early], new Date('2025-01-02T00:00:00Z'))).size).toBe(0);
    const other = await sendingAccount(database.db);
    expect((await findMessageReferences(database.db, other.accountId, [early, late], new Date(0))).size).toBe(0);
  });

  it('finds files held by templates, campaigns and campaign executions of the account', async () => {
    const account = await sendingAccount(database.db);
    const [template, execution, none] = [uuidv7(), uuidv7(), uuidv7()];
    await insertTemplate(database.db, account.accountId, { media: [item(account.accountId, template)] });
    await database.db.insert(campaignJobs).values({
      id: uuidv7(),
      accountId: account.accountId,
      phoneNumberFilter: { group: 'x' },
      media: [item(account.accountId, execution)],
      status: 'done',
    });
    expect(await heldOutsideMessages(database.db, account.accountId, [template, execution, none])).toEqual(new Set([template, execution]));
    const other = await sendingAccount(database.db);
    expect(await heldOutsideMessages(database.db, other.accountId, [template, execution])).toEqual(new Set());
  });
});
