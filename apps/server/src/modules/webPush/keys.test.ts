import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { webPushKeys } from '../../platform/db/schema/index.js';
import { SecretCipher } from '../../platform/secrets/cipher.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { captureLogger, silentLogger } from '../../test/logger.js';
import { loadOrCreateVapidKeys, publicKeyOf, vapidKeysFor } from './keys.js';

describe.each(testDatabaseKinds)('VAPID keys on %s', (kind) => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase(kind);
  });
  afterEach(async () => {
    await database.close();
  });

  const key = crypto.randomBytes(32);

  it('are made once and read back the same after a restart; two processes starting at once agree', async () => {
    const [first, second] = await Promise.all([
      loadOrCreateVapidKeys(database.db, new SecretCipher(key)),
      loadOrCreateVapidKeys(database.db, new SecretCipher(key)),
    ]);
    expect(second).toEqual(first);
    expect(publicKeyOf(first.privateKey)).toBe(first.publicKey);
    // A restart: a new cipher of the same key, nothing kept in memory.
    expect(await loadOrCreateVapidKeys(database.db, new SecretCipher(Buffer.from(key)))).toEqual(first);
    const rows = await database.db.select().from(webPushKeys);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.privateKeyEncrypted).toMatch(/^v1\./);
    expect(rows[0]?.privateKeyEncrypted).not.toContain(first.privateKey);
  });

  it('are not made by the outbox side, and are read by it once the web app made them', async () => {
    const secrets = { key, keyFile: null };
    expect(await vapidKeysFor(database, secrets, silentLogger(), { create: false })).toBeNull();
    expect(await database.db.select().from(webPushKeys)).toEqual([]);
    const made = await vapidKeysFor(database, secrets, silentLogger(), { create: true });
    expect(made).not.toBeNull();
    expect(await vapidKeysFor(database, secrets, silentLogger(), { create: false })).toEqual(made);
  });

  it.runIf(kind === 'pglite')('need no key file for a database kept in memory (tests): nothing is written under DATA_DIR', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-vapid-'));
    try {
      const secrets = { key: null, keyFile: path.join(dataDir, 'secrets.key') };
      const made = await vapidKeysFor(database, secrets, silentLogger(), { create: true });
      expect(made).not.toBeNull();
      expect(await vapidKeysFor(database, secrets, silentLogger(), { create: false })).toEqual(made);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('turn web push off, saying why, without a secrets key or with another one', async () => {
    const none = captureLogger('warn');
    expect(await vapidKeysFor(database, { key: null, keyFile: null }, none.log, { create: true })).toBeNull();
    expect(none.lines.map((l) => l.msg)).toEqual([expect.stringMatching(/^web push is off: set SECRETS_KEY/)]);
    expect(await database.db.select().from(webPushKeys)).toEqual([]);

    await loadOrCreateVapidKeys(database.db, new SecretCipher(key));
    // The same database as a second process holds it (what this process kept is kept per database object).
    const other: Database = { ...database };
    const changed = captureLogger('warn');
    expect(await vapidKeysFor(other, { key: crypto.randomBytes(32), keyFile: null }, changed.log, { create: true })).toBeNull();
    expect(changed.lines.map((l) => l.msg)).toEqual([expect.stringMatching(/^web push is off: the stored VAPID key cannot be read/)]);
    // Kept off for this process: asked again, nothing more is logged.
    expect(await vapidKeysFor(other, { key: crypto.randomBytes(32), keyFile: null }, changed.log, { create: true })).toBeNull();
    expect(changed.lines).toHaveLength(1);
  });
});

