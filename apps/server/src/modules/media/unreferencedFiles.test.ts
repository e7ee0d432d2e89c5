import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeContacts } from '../contacts/contactWriter.js';
import { erasePersonalData } from '../privacy/personalDataEraser.js';
import type { Database } from '../../platform/db/client.js';
import { campaignJobs, mediaFiles, messages, type MediaFileRow } from '../../platform/db/schema/index.js';
import { insertCampaign } from '../../test/campaigns.js';
import { addConversation, addMessage } from '../../test/conversations.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { sendingAccount } from '../../test/sendingFixtures.js';
import { insertTemplate } from '../../test/templates.js';
import { storeMediaFile } from './mediaFiles.js';
import { isStored, openTestStorage, testMediaServices, testStorageKinds, type TestStorage } from './test/testStorages.js';
import { removeUnreferencedFiles } from './unreferencedFiles.js';
import { accountMediaUrl } from './urls.js';

const PUBLIC_URL = 'https://parley.example.test';
const HOUR = 3_600_000;

const item = (file: MediaFileRow) => ({ url: accountMediaUrl(PUBLIC_URL, file.accountId, file.id), type: 'image/png', filename: 'a.png' });

describe.each(testDatabaseKinds)('unreferenced media files on %s', (databaseKind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(databaseKind);
  });
  afterAll(async () => {
    await database.close();
  });

  describe.each(testStorageKinds)('in %s storage', (storageKind) => {
    let t: TestStorage;
    beforeAll(async () => {
      t = await openTestStorage(storageKind);
    });
    afterAll(async () => {
      await t.close();
    });

    /** A stored file `ageHours` old. */
    async function store(accountId: string, ageHours: number, options: { messageId?: string } = {}): Promise<MediaFileRow> {
      const file = await storeMediaFile(database.db, testMediaServices(t.storage), {
        accountId,
        contentType: 'image/png',
        filename: 'a.png',
        bytes: Buffer.from('not really a png'),
        width: 1,
        height: 1,
        source: options.messageId === undefined ? 'upload' : 'inbound',
        messageId: options.messageId ?? null,
      });
      const [aged] = await database.db
        .update(mediaFiles)
        .set({ createdAt: sql`now() - make_interval(hours => ${ageHours})` })
        .where(eq(mediaFiles.id, file.id))
        .returning();
      if (!aged) throw new Error('no media file');
      return aged;
    }

    const rowOf = async (file: MediaFileRow) => (await database.db.select().from(mediaFiles).where(eq(mediaFiles.id, file.id)))[0];
    const kept = async (file: MediaFileRow) => (await rowOf(file)) !== undefined && (await isStored(t.storage, file.key));
    const gone = async (file: MediaFileRow) => (await rowOf(file)) === undefined && !(await isStored(t.storage, file.key));
    const sweep = () => removeUnreferencedFiles(database.db, t.storage, { log: silentLogger() });

    it('removes old files nothing holds and keeps held ones and fresh ones', async () => {
      const account = await sendingAccount(database.db);
      const a = account.accountId;
      const conversation = await addConversation(database.db, account);
      const [sent, skewed, inTemplate, inCampaign, inExecution] = [
        await store(a, 48),
        await store(a, 48),
        await store(a, 48),
        await store(a, 48),
        await store(a, 48),
      ];
      const unsent = await store(a, 25);
      const fresh = await store(a, 23);
      const message = await addMessage(database.db, account, conversation, { direction: 'outbound', status: 'delivered', media: [item(sent)] });
      // Written by a machine whose clock is behind: its time is before the file's.
      await addMessage(database.db, account, conversation, { direction: 'outbound', media: [item(skewed)], createdAt: new Date(Date.now() - 49 * HOUR) });
      await insertTemplate(database.db, a, { media: [item(inTemplate)] });
      await insertCampaign(database.db, a, account.numberId, { media: [item(inCampaign)] });
      await database.db.insert(campaignJobs).values({ id: uuidv7(), accountId: a, phoneNumberFilter: {}, media: [item(inExecution)], status: 'done' });

      const result = await sweep();

      expect(await gone(unsent)).toBe(true);
      for (const file of [sent, skewed, inTemplate, inCampaign, inExecution, fresh]) expect(await kept(file)).toBe(true);
      expect((await rowOf(sent))?.messageId).toBe(message.id);
      expect(result.removed).toBeGreaterThanOrEqual(1);
      // Files a message holds are not looked at again while it exists.
      const again = await sweep();
      expect(again.examined).toBeLessThan(result.examined);
      expect(await kept(sent)).toBe(true);
    });

    it('removes the pictures of removed contacts and conversations unless another message still sends them', async () => {
      const account = await sendingAccount(database.db);
      const a = account.accountId;
      const [removed, erased, third] = [await addConversation(database.db, account), await addConversation(database.db, account), await addConversation(database.db, account)];
      const received = await addMessage(database.db, account, removed, { createdAt: new Date(Date.now() - 50 * HOUR) });
      const picture = await store(a, 49, { messageId: received.id });
      // As the inbound fetch does: the message then names our copy.
      await database.db.update(messages).set({ media: [item(picture)] }).where(eq(messages.id, received.id));
      const [shared, only] = [await store(a, 48), await store(a, 48)];
      await addMessage(database.db, account, removed, { direction: 'outbound', media: [item(shared), item(only)], createdAt: new Date(Date.now() - 47 * HOUR) });
      const second = await addMessage(database.db, account, erased, { direction: 'outbound', media: [item(shared)], createdAt: new Date(Date.now() - 46 * HOUR) });
      const last = await addMessage(database.db, account, third, { direction: 'outbound', media: [item(shared)], createdAt: new Date(Date.now() - 45 * HOUR) });
      await sweep();
      for (const file of [picture, shared, only]) expect(await kept(file)).toBe(true);

      await removeContacts(database.db, a, [removed.contactId]);
      expect((await rowOf(picture))?.messageId).toBeNull();
      await sweep();
      expect(await gone(picture)).toBe(true);
      expect(await gone(only)).toBe(true);
      expect(await kept(shared)).toBe(true);
      expect((await rowOf(shared))?.messageId).toBe(second.id);

      await erasePersonalData(database.db, a, erased.contactId, { userId: account.adminId, accountIds: [a] });
      await sweep();
      expect((await rowOf(shared))?.messageId).toBe(last.id);

      await database.db.execute(sql`delete from conversations where id = ${third.id}`);
      await sweep();
      expect(await gone(shared)).toBe(true);
    });

    it('leaves rows of another storage alone', async () => {
      const account = await sendingAccount(database.db);
      const file = await store(account.accountId, 48);
      await database.db.update(mediaFiles).set({ storage: storageKind === 'disk' ? 's3' : 'disk' }).where(eq(mediaFiles.id, file.id));
      await sweep();
      expect(await kept(file)).toBe(true);
    });
  });
});
