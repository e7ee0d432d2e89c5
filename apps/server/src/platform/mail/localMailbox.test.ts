import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../db/client.js';
import { migrateDatabase } from '../db/migrate.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { testConfig } from '../../test/config.js';
import { createMailer } from './index.js';
import { createLocalMailbox, findMailboxMessage, listMailboxMessages } from './localMailbox.js';

describe.each(testDatabaseKinds)('local mailbox on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('keeps every message it is given, newest first', async () => {
    const mailbox = createLocalMailbox(database.db);
    expect(mailbox.kind).toBe('mailbox');
    const first = await mailbox.send({ to: 'ada@example.com', subject: 'First', text: 'one' });
    const second = await mailbox.send({ to: 'bob@example.com', subject: 'Second', text: 'two', html: '<b>two</b>' });
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);

    const rows = await listMailboxMessages(database.db, { limit: 10 });
    expect(rows.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(rows[0]).toMatchObject({ recipient: 'bob@example.com', subject: 'Second', text: 'two', html: '<b>two</b>' });
    expect(rows[1]?.html).toBeNull();
    expect(rows[0]?.createdAt).toBeInstanceOf(Date);

    expect((await listMailboxMessages(database.db, { limit: 10, to: 'ada@example.com' })).map((r) => r.id)).toEqual([
      first.id,
    ]);
    expect((await listMailboxMessages(database.db, { limit: 1 })).map((r) => r.id)).toEqual([second.id]);
    expect(await findMailboxMessage(database.db, first.id)).toMatchObject({ subject: 'First', text: 'one' });
    expect(await findMailboxMessage(database.db, '01900000-0000-7000-8000-000000000000')).toBeNull();
  });

  it('is the mailer when no SMTP server is configured, and SMTP when one is', () => {
    expect(createMailer(testConfig(), database).kind).toBe('mailbox');
    expect(createMailer(testConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }), database).kind).toBe('smtp');
  });
});

describe('local mailbox in a data directory', () => {
  it('keeps its messages across a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-mailbox-'));
    try {
      const before = await openPglite(dataDir);
      await migrateDatabase(before);
      const { id } = await createLocalMailbox(before.db).send({ to: 'ada@example.com', subject: 'Kept', text: 'still here' });
      await before.close();

      const after = await openPglite(dataDir);
      try {
        expect(await findMailboxMessage(after.db, id)).toMatchObject({ recipient: 'ada@example.com', subject: 'Kept' });
      } finally {
        await after.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
