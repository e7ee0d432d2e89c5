import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IMPORT_FILE_MAX_BYTES,
  importFileMessages,
  importRowMessages,
  roles,
  type ContactImport,
  type ContactImportResult,
  type Role,
} from '@parley/shared';
import { IMPORT_NOT_QUEUED_MESSAGE } from '../contactImporter.js';
import { runContactImport, type RunOptions } from '../contactImporterJob.js';
import { queryRows, type Database, type Queryable } from '../../../platform/db/client.js';
import { accountAttributes, contactImports, contactLists, contacts, events, listMembers } from '../../../platform/db/schema/index.js';
import { buildApp, type App } from '../../../app/httpApp.js';
import { importContactsJob } from '../importContactsJob.js';
import { JobQueue } from '../../../platform/jobs/queue.js';
import { createLocalMailbox } from '../../../platform/mail/localMailbox.js';
import { startApiHarness, TableAuthenticator } from '../../../test/apiHarness.js';
import { testConfig } from '../../../test/config.js';
import { openTestDatabase, testDatabaseKinds, uniqueJobsSchema, type TestDatabaseKind } from '../../../test/databases.js';
import { createAccount, createUser, roleFixtures } from '../../../test/factories.js';
import { silentLogger } from '../../../test/logger.js';
import { createCarrierRegistry } from '../../carriers/registry.js';
import { createMessageHandlers } from '../../messaging/handlers.js';

const fixturesDir = fileURLToPath(new URL('../import/fixtures/', import.meta.url));

/** A fixture file as bytes (the tests read them from src: they are not built). */
const fixture = (name: string): Buffer => fs.readFileSync(path.join(fixturesDir, name));

/**
 * The API over a database of its own with a started job queue that does not work: an upload is queued
 * for real, and the test runs the job's work itself (runImport) to await it and to stop it half way.
 */
interface ImportHarness {
  app: App;
  database: Database;
  jobsSchema: string;
  tokenFor(userId: string): string;
  upload(accountId: string, token: string, body: Buffer | string, query?: Record<string, string>, contentType?: string): Promise<LightMyRequestResponse>;
  runImport(importId: string, options?: RunOptions): Promise<ContactImport | null>;
  getImport(accountId: string, token: string, importId: string): Promise<ContactImport>;
  close(): Promise<void>;
}

async function startImportHarness(kind: TestDatabaseKind): Promise<ImportHarness> {
  const database = await openTestDatabase(kind);
  const log = silentLogger();
  const jobsSchema = uniqueJobsSchema();
  const jobs = new JobQueue({ database, log, work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1, schema: jobsSchema });
  await jobs.start([importContactsJob(database)]);
  const authenticator = new TableAuthenticator();
  const app = await buildApp(
    { config: testConfig({}), log, database, jobs, authenticator, mailer: createLocalMailbox(database.db), carriers: createCarrierRegistry('simulator', { deployment: {} }), carrierHandlers: createMessageHandlers({ database, log: silentLogger() }) },
    { webDist: null },
  );
  await app.ready();
  return {
    app,
    database,
    jobsSchema,
    tokenFor: (userId) => authenticator.add({ userId, accountIds: [] }),
    upload: (accountId, token, body, query = {}, contentType = 'text/csv') =>
      app.inject({
        method: 'POST',
        url: `/v1/accounts/${accountId}/contacts/imports?${new URLSearchParams(query).toString()}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        payload: body,
      }),
    runImport: (importId, options) => runContactImport(database, importId, options),
    async getImport(accountId, token, importId) {
      const res = await app.inject({
        method: 'GET',
        url: `/v1/accounts/${accountId}/contacts/imports/${importId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.statusCode !== 200) throw new Error(`GET import answered ${res.statusCode}: ${res.body}`);
      return res.json<{ data: ContactImport }>().data;
    },
    async close() {
      await app.close();
      await jobs.stop(1000);
      await database.close();
    },
  };
}

/** An account's contacts by number, with the fields the import writes. */
async function contactsOf(q: Queryable, accountId: string) {
  return q
    .select({
      firstName: contacts.firstName,
      lastName: contacts.lastName,
      mobile: contacts.mobileNumber,
      country: contacts.mobileCountry,
      email: contacts.email,
      tags: contacts.tags,
      attributes: contacts.attributes,
      valid: contacts.valid,
      error: contacts.errorDescription,
    })
    .from(contacts)
    .where(eq(contacts.accountId, accountId))
    .orderBy(asc(contacts.mobileNumber));
}

async function countRows(q: Queryable, table: string, accountId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(q, sql`select count(*)::int as n from ${sql.identifier(table)} where account_id = ${accountId}`);
  return row?.n ?? 0;
}

/** The upload result with the counts given, zero elsewhere. */
const result = (r: Partial<ContactImportResult>): ContactImportResult => ({
  submitted: 0,
  success: 0,
  missingMobile: 0,
  duplicates: 0,
  errors: [],
  unlistedErrors: 0,
  ...r,
});

describe.each(testDatabaseKinds)('contact imports on %s', (kind) => {
  let h: ImportHarness;

  beforeAll(async () => {
    h = await startImportHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  /** A fresh account (default country US unless given) with an administrator. */
  async function ownAccount(defaultCountry = 'US') {
    const admin = await createUser(h.database.db);
    const account = await createAccount(h.database.db, { [admin.id]: 'Administrator' }, { defaultCountry });
    return { accountId: account.id, token: h.tokenFor(admin.id) };
  }

  /** Uploads, expects 202, runs the job's work and answers the finished import. */
  async function imported(accountId: string, token: string, body: Buffer | string, query: Record<string, string> = {}) {
    const res = await h.upload(accountId, token, body, query);
    expect(res.statusCode, res.body).toBe(202);
    const { data } = res.json<{ data: ContactImport }>();
    expect(data).toMatchObject({ status: 'queued', progress: { processedRows: 0, totalRows: null } });
    await h.runImport(data.id);
    return h.getImport(accountId, token, data.id);
  }

  describe('the exports people bring', () => {
    it('Google Contacts (current export): Phone 1, labels as tags, details as attributes', async () => {
      const { accountId, token } = await ownAccount();
      const done = await imported(accountId, token, fixture('google.csv'), { fileName: 'contacts.csv' });
      expect(done).toMatchObject({ status: 'completed', fileName: 'contacts.csv', progress: { processedRows: 4, totalRows: 4 }, error: null });
      expect(done.result).toEqual(result({ submitted: 4, success: 3, missingMobile: 1, errors: [{ row: 5, reason: 'Number is missing' }] }));
      expect(await contactsOf(h.database.db, accountId)).toEqual([
        {
          firstName: 'Ann',
          lastName: 'Lee',
          mobile: '+14155552671',
          country: 'US',
          email: 'ann.lee@example.com',
          tags: ['Patients', 'starred'],
          attributes: {
            nickname: 'Annie',
            organizationName: 'Harbor Dental',
            organizationTitle: 'Hygienist',
            birthday: '1988-04-12',
            notes: 'Prefers texts\nafter 5pm',
            address1Street: '12 Bay St',
            address1City: 'San Francisco',
            address1Region: 'CA',
            address1PostalCode: '94107',
            address1Country: 'US',
          },
          valid: true,
          error: null,
        },
        { firstName: 'Bob', lastName: 'Okafor', mobile: '+14155552672', country: 'US', email: 'bob.okafor@example.com', tags: ['Patients'], attributes: {}, valid: true, error: null },
        { firstName: 'Chloé', lastName: 'Martin', mobile: '+447400123456', country: 'GB', email: null, tags: [], attributes: {}, valid: true, error: null },
      ]);
      const names = await h.database.db.select({ name: accountAttributes.name }).from(accountAttributes).where(eq(accountAttributes.accountId, accountId));
      expect(names.map((n) => n.name).sort()).toEqual(
        ['address1City', 'address1Country', 'address1PostalCode', 'address1Region', 'address1Street', 'birthday', 'nickname', 'notes', 'organizationName', 'organizationTitle'].sort(),
      );
    });

    it('Google Contacts (older export): Given Name, Family Name, Group Membership', async () => {
      const { accountId, token } = await ownAccount();
      const done = await imported(accountId, token, fixture('google-legacy.csv'));
      expect(done.result).toEqual(result({ submitted: 2, success: 2 }));
      expect(await contactsOf(h.database.db, accountId)).toEqual([
        { firstName: 'Ann', lastName: 'Lee', mobile: '+14155552671', country: 'US', email: 'ann.lee@example.com', tags: ['Patients'], attributes: { organization1Name: 'Harbor Dental', organization1Title: 'Hygienist' }, valid: true, error: null },
        { firstName: 'Bob', lastName: 'Okafor', mobile: '+14155552672', country: 'US', email: 'bob.okafor@example.com', tags: [], attributes: {}, valid: true, error: null },
      ]);
    });

    it('Outlook: Mobile Phone only, categories as tags (CRLF, every cell quoted)', async () => {
      const { accountId, token } = await ownAccount();
      const done = await imported(accountId, token, fixture('outlook.csv'));
      expect(done.result).toEqual(result({ submitted: 3, success: 2, missingMobile: 1, errors: [{ row: 4, reason: 'Number is missing' }] }));
      expect(await contactsOf(h.database.db, accountId)).toEqual([
        { firstName: 'Ann', lastName: 'Lee', mobile: '+14155552671', country: 'US', email: 'ann.lee@example.com', tags: ['Patients', 'VIP'], attributes: { title: 'Ms.', jobTitle: 'Hygienist', company: 'Harbor Dental' }, valid: true, error: null },
        { firstName: 'Bob', lastName: 'Okafor', mobile: '+14155552672', country: 'US', email: 'bob.okafor@example.com', tags: ['Patients'], attributes: {}, valid: true, error: null },
      ]);
    });

    it('Apple Contacts (iCloud vCard converted): mobile or iPhone; a number not valid is kept as invalid', async () => {
      const { accountId, token } = await ownAccount();
      const done = await imported(accountId, token, fixture('apple-icloud.csv'));
      expect(done.result).toEqual(result({ submitted: 3, success: 3 }));
      expect(await contactsOf(h.database.db, accountId)).toEqual([
        { firstName: 'Ann', lastName: 'Lee', mobile: '+14155552671', country: 'US', email: 'ann.lee@example.com', tags: ['Patients'], attributes: { nickname: 'Annie', organization: 'Harbor Dental', jobTitle: 'Hygienist', birthday: '1988-04-12' }, valid: true, error: null },
        { firstName: 'Bob', lastName: 'Okafor', mobile: '+14155552672', country: 'US', email: null, tags: [], attributes: {}, valid: true, error: null },
        { firstName: 'Eve', lastName: 'Adams', mobile: '0412 345 678', country: 'US', email: null, tags: [], attributes: {}, valid: false, error: 'Country or Number is not valid' },
      ]);
    });

    it('Apple Contacts from an Australian account: the national number is valid there', async () => {
      const { accountId, token } = await ownAccount('AU');
      await imported(accountId, token, fixture('apple-icloud.csv'));
      expect((await contactsOf(h.database.db, accountId)).map((c) => [c.mobile, c.valid])).toEqual([
        ['+14155552671', true],
        ['+14155552672', true],
        ['+61412345678', true],
      ]);
    });

    it('HubSpot: Mobile Phone Number; Phone Number too when the mapping adds it', async () => {
      const { accountId, token } = await ownAccount();
      const done = await imported(accountId, token, fixture('hubspot.csv'));
      expect(done.result).toEqual(
        result({ submitted: 3, success: 1, missingMobile: 2, errors: [{ row: 3, reason: 'Number is missing' }, { row: 4, reason: 'Number is missing' }] }),
      );
      expect(await contactsOf(h.database.db, accountId)).toEqual([
        { firstName: 'Ann', lastName: 'Lee', mobile: '+14155552671', country: 'US', email: 'ann.lee@example.com', tags: [], attributes: { companyName: 'Harbor Dental' }, valid: true, error: null },
      ]);
      const again = await imported(accountId, token, fixture('hubspot.csv'), { mapping: JSON.stringify({ 'Phone Number': 'mobile' }) });
      expect(again.result).toEqual(result({ submitted: 3, success: 2, missingMobile: 1, errors: [{ row: 4, reason: 'Number is missing' }] }));
      expect((await contactsOf(h.database.db, accountId)).map((c) => c.mobile)).toEqual(['+14155552671', '+14155552672']);
    });

    it('Mailchimp: CC as the country, quoted TAGS', async () => {
      const { accountId, token } = await ownAccount();
      const done = await imported(accountId, token, fixture('mailchimp.csv'));
      expect(done.result).toEqual(result({ submitted: 3, success: 2, missingMobile: 1, errors: [{ row: 4, reason: 'Number is missing' }] }));
      expect(await contactsOf(h.database.db, accountId)).toEqual([
        { firstName: 'Ann', lastName: 'Lee', mobile: '+14155552671', country: 'US', email: 'ann.lee@example.com', tags: ['Patients', 'VIP'], attributes: { address: '12 Bay St  San Francisco CA 94107  US', birthday: '04/12', timezone: 'America/Los_Angeles', region: 'CA' }, valid: true, error: null },
        { firstName: 'Chloé', lastName: 'Martin', mobile: '+447400123456', country: 'GB', email: 'chloe@example.com', tags: ['Patients'], attributes: { timezone: 'Europe/London' }, valid: true, error: null },
      ]);
    });

    it("Excel (byte-order mark, ';' separators, CRLF): a number Excel mangled is refused by row", async () => {
      const { accountId, token } = await ownAccount();
      const done = await imported(accountId, token, fixture('excel-semicolon-bom.csv'));
      expect(done.result).toEqual(result({ submitted: 3, success: 2, errors: [{ row: 4, reason: importRowMessages.spreadsheetNumber('4,15556E+10') }] }));
      expect(done.progress).toEqual({ processedRows: 4, totalRows: 4 });
      expect(await contactsOf(h.database.db, accountId)).toEqual([
        { firstName: 'Ann', lastName: 'Lee', mobile: '+14155552671', country: 'US', email: 'ann.lee@example.com', tags: [], attributes: { shoeSize: '38', balance: '1234,50' }, valid: true, error: null },
        { firstName: 'Bob', lastName: 'Okafor', mobile: '+14155552672', country: 'US', email: null, tags: [], attributes: { shoeSize: '44', balance: '0,00' }, valid: true, error: null },
      ]);
    });

    it('Excel "Unicode Text" (UTF-16 with a byte-order mark, tab separated)', async () => {
      const { accountId, token } = await ownAccount();
      const done = await imported(accountId, token, fixture('excel-unicode-text.txt'));
      expect(done.result).toEqual(result({ submitted: 2, success: 2 }));
      expect((await contactsOf(h.database.db, accountId)).map((c) => [c.mobile, c.firstName, c.attributes])).toEqual([
        ['+14155552671', 'Ann', {}],
        ['+447400123456', 'Chloé', { notes: 'Réunion ☕' }],
      ]);
    });
  });

  describe('bad input: a clear message and nothing stored', () => {
    const refusals: [string, () => Buffer, string][] = [
      ['a binary file', () => fixture('bad-binary.png'), importFileMessages.binary],
      ['an Excel workbook', () => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 1)]), importFileMessages.workbook],
      ['Latin-1 text', () => fixture('bad-latin1.csv'), importFileMessages.notUtf8(3)],
      ['UTF-16 without a byte-order mark', () => fixture('bad-utf16-no-bom.csv'), importFileMessages.utf16WithoutBom],
      ['a header and no rows', () => fixture('bad-no-rows.csv'), importFileMessages.noRows],
      ['an empty file', () => Buffer.alloc(0), importFileMessages.empty],
      ['blank lines only', () => Buffer.from('\r\n\r\n'), importFileMessages.empty],
      ['one 10 MB value in a single column', () => Buffer.concat([Buffer.from('mobile\n'), Buffer.alloc(10 * 1024 * 1024, 'x')]), importFileMessages.rowTooLong(2)],
      ['one 10 MB line', () => Buffer.alloc(10 * 1024 * 1024, 'y'), importFileMessages.rowTooLong(1)],
      ['no column for mobile', () => Buffer.from('name,email\nAnn,ann@example.com\n'), 'Missing Mandatory Field: You must specify a field mapping for mobile'],
    ];
    it.each(refusals)('%s', async (_what, body, message) => {
      const { accountId, token } = await ownAccount();
      const res = await h.upload(accountId, token, body());
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'bad_request', message } });
      expect(await countRows(h.database.db, 'contact_imports', accountId)).toBe(0);
      expect(await countRows(h.database.db, 'contacts', accountId)).toBe(0);
    });

    it('a file over the size limit (413)', async () => {
      const { accountId, token } = await ownAccount();
      const res = await h.upload(accountId, token, Buffer.concat([Buffer.from('mobile\n'), Buffer.alloc(IMPORT_FILE_MAX_BYTES, '1')]));
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: { code: 'payload_too_large', message: importFileMessages.tooLarge } });
      expect(await countRows(h.database.db, 'contact_imports', accountId)).toBe(0);
    });

    it('a mapping that takes mobile away, or is not JSON', async () => {
      const { accountId, token } = await ownAccount();
      const csv = 'mobile,name\n+14155552671,Ann\n';
      const noMobile = await h.upload(accountId, token, csv, { mapping: JSON.stringify({ mobile: null }) });
      expect(noMobile.json()).toEqual({
        error: { code: 'bad_request', message: 'Missing Mandatory Field: You must specify a field mapping for mobile' },
      });
      const notJson = await h.upload(accountId, token, csv, { mapping: '{mobile' });
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json()).toMatchObject({ error: { code: 'validation_failed', message: 'mapping: Must be JSON' } });
      const badList = await h.upload(accountId, token, csv, { defaults: JSON.stringify({ listId: 'Nope' }) });
      expect(badList.json()).toEqual({ error: { code: 'bad_request', message: 'List not found: Nope' } });
      const json = await h.app.inject({
        method: 'POST',
        url: `/v1/accounts/${accountId}/contacts/imports`,
        headers: { authorization: `Bearer ${token}` },
        payload: { data: [] },
      });
      expect(json.statusCode).toBe(415);
      expect(await countRows(h.database.db, 'contact_imports', accountId)).toBe(0);
    });

    it('an unclosed quote near the top: refused at upload, naming the line', async () => {
      const { accountId, token } = await ownAccount();
      const res = await h.upload(accountId, token, fixture('bad-unclosed-quote.csv'));
      expect(res.json()).toEqual({ error: { code: 'bad_request', message: importFileMessages.unclosedQuote(3) } });
      expect(await countRows(h.database.db, 'contact_imports', accountId)).toBe(0);
    });

    it('an unclosed quote further down: refused at upload all the same', async () => {
      const { accountId, token } = await ownAccount();
      const good = Array.from({ length: 20_000 }, (_, i) => `+1415${String(2000000 + i)},Name ${i}`).join('\n');
      const res = await h.upload(accountId, token, `mobile,firstName\n${good}\n+14155550000,"never closed\n+14155550001,x\n`);
      expect(res.json()).toEqual({ error: { code: 'bad_request', message: importFileMessages.unclosedQuote(20_002) } });
      expect(await countRows(h.database.db, 'contact_imports', accountId)).toBe(0);
    });

    it('a stored file the job cannot read: the import fails with the reason, nothing goes in, the file is dropped', async () => {
      const { accountId, token } = await ownAccount();
      const id = randomUUID();
      const file = Buffer.from('mobile,firstName\n+14155552671,Ann\n+14155552672,"never closed\n');
      await h.database.db
        .insert(contactImports)
        .values({ id, accountId, fileName: 'broken.csv', file, fileSize: file.length, mapping: { mobile: 'mobile', firstName: 'firstName' } });
      await h.runImport(id);
      const failed = await h.getImport(accountId, token, id);
      expect(failed).toMatchObject({ status: 'failed', error: { description: importFileMessages.unclosedQuote(3) } });
      expect(failed.result).toEqual(result({}));
      expect(await countRows(h.database.db, 'contacts', accountId)).toBe(0);
      const [stored] = await h.database.db.select({ file: contactImports.file }).from(contactImports).where(eq(contactImports.id, id));
      expect(stored?.file).toBeNull();
    });
  });

  describe('merging into existing contacts', () => {
    const existing = 'mobile,firstName,lastName,email,tags,Color,Size\n+14155552671,Old,Name,old@example.com,Old;Keep,red,M\n';
    const update = 'mobile,firstName,tags,Size\n(415) 555-2671,,New;keep,L\n';

    it("append (the default) adds tags and attributes and fills what the file gives", async () => {
      const { accountId, token } = await ownAccount();
      await imported(accountId, token, existing);
      const done = await imported(accountId, token, update);
      expect(done.mergeStrategy).toBe('append');
      expect(done.result).toEqual(result({ submitted: 1, success: 1 }));
      expect(await contactsOf(h.database.db, accountId)).toEqual([
        { firstName: 'Old', lastName: 'Name', mobile: '+14155552671', country: 'US', email: 'old@example.com', tags: ['Old', 'Keep', 'New'], attributes: { color: 'red', size: 'L' }, valid: true, error: null },
      ]);
    });

    it("remove replaces tags and attributes, and clears a field the file has but leaves empty", async () => {
      const { accountId, token } = await ownAccount();
      await imported(accountId, token, existing);
      const done = await imported(accountId, token, update, { mergeStrategy: 'remove' });
      expect(done.mergeStrategy).toBe('remove');
      expect(await contactsOf(h.database.db, accountId)).toEqual([
        { firstName: '', lastName: 'Name', mobile: '+14155552671', country: 'US', email: 'old@example.com', tags: ['New', 'keep'], attributes: { size: 'L' }, valid: true, error: null },
      ]);
    });

    it('core sets the names and e-mail the file gives and leaves tags and attributes as they are', async () => {
      const { accountId, token } = await ownAccount();
      await imported(accountId, token, existing);
      const done = await imported(accountId, token, 'mobile,firstName,email,tags,Size\n(415) 555-2671,New,new@example.com,New,L\n+14155552672,Bob,,Fresh,S\n', {
        mergeStrategy: 'core',
      });
      expect(done.mergeStrategy).toBe('core');
      expect(done.result).toEqual(result({ submitted: 2, success: 2 }));
      // A new contact takes the whole row; an existing one only its core fields.
      expect(await contactsOf(h.database.db, accountId)).toEqual([
        { firstName: 'New', lastName: 'Name', mobile: '+14155552671', country: 'US', email: 'new@example.com', tags: ['Old', 'Keep'], attributes: { color: 'red', size: 'M' }, valid: true, error: null },
        { firstName: 'Bob', lastName: '', mobile: '+14155552672', country: 'US', email: null, tags: ['Fresh'], attributes: { size: 'S' }, valid: true, error: null },
      ]);
    });

    it('refuses a merge strategy it does not know, importing nothing', async () => {
      const { accountId, token } = await ownAccount();
      const res = await h.upload(accountId, token, 'mobile\n+14155552671\n', { mergeStrategy: 'replace' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'validation_failed', message: 'mergeStrategy: Use append, core or remove' } });
      expect(await countRows(h.database.db, 'contact_imports', accountId)).toBe(0);
    });

    it('counts the same number twice in a file as a duplicate; the first row wins', async () => {
      const { accountId, token } = await ownAccount();
      const csv = 'mobile,firstName\n+14155552671,Ann\n(415) 555-2671,Annie\n,Nobody\n4155552671,Ann again\n+14155552672,Bob\n';
      const done = await imported(accountId, token, csv);
      expect(done.result).toEqual(
        result({
          submitted: 5,
          success: 2,
          missingMobile: 1,
          duplicates: 2,
          errors: [
            { row: 3, reason: importRowMessages.duplicate(2) },
            { row: 4, reason: 'Number is missing' },
            { row: 5, reason: importRowMessages.duplicate(2) },
          ],
        }),
      );
      expect((await contactsOf(h.database.db, accountId)).map((c) => [c.mobile, c.firstName])).toEqual([
        ['+14155552671', 'Ann'],
        ['+14155552672', 'Bob'],
      ]);
    });
  });

  describe('lists', () => {
    it('adds rows to the list they name (by id or name), opted in when listOptIn says so, and never undoes an opt-out', async () => {
      const { accountId, token } = await ownAccount();
      const listId = randomUUID();
      await h.database.db.insert(contactLists).values({ id: listId, accountId, name: 'Newsletter' });
      await imported(accountId, token, `mobile,listId\n+14155552673,${listId}\n`);
      await h.database.db.update(listMembers).set({ status: 'optedOut', optOutAt: new Date() }).where(eq(listMembers.listId, listId));
      const csv = `mobile,listId,listOptIn\n+14155552671,${listId},yes\n+14155552672,newsletter,\n+14155552673,Newsletter,true\n+14155552674,Other,true\n`;
      const done = await imported(accountId, token, csv);
      expect(done.result).toEqual(result({ submitted: 4, success: 3, errors: [{ row: 5, reason: 'List not found: Other' }] }));
      const members = await h.database.db
        .select({ status: listMembers.status, optInAt: listMembers.optInAt, source: listMembers.consentSource, mobile: contacts.mobileNumber })
        .from(listMembers)
        .innerJoin(contacts, eq(contacts.id, listMembers.contactId))
        .where(and(eq(listMembers.accountId, accountId), eq(listMembers.listId, listId)))
        .orderBy(asc(contacts.mobileNumber));
      expect(members.map((m) => [m.mobile, m.status, m.optInAt !== null, m.source])).toEqual([
        ['+14155552671', 'optedIn', true, 'import'],
        ['+14155552672', 'subscribed', false, 'import'],
        ['+14155552673', 'optedOut', false, 'import'],
      ]);
      expect(await countRows(h.database.db, 'contacts', accountId)).toBe(3);
    });

    it("refuses a list of another account, by row", async () => {
      const { accountId, token } = await ownAccount();
      const other = await ownAccount();
      const otherList = randomUUID();
      await h.database.db.insert(contactLists).values({ id: otherList, accountId: other.accountId, name: 'Theirs' });
      const done = await imported(accountId, token, `mobile,listId\n+14155552671,${otherList}\n+14155552672,Theirs\n`);
      expect(done.result).toEqual(
        result({ submitted: 2, errors: [{ row: 2, reason: `List not found: ${otherList}` }, { row: 3, reason: 'List not found: Theirs' }] }),
      );
      expect(await countRows(h.database.db, 'list_members', other.accountId)).toBe(0);
    });
  });

  describe('the job', () => {
    it('is queued on upload, once per file', async () => {
      const { accountId, token } = await ownAccount();
      const res = await h.upload(accountId, token, 'mobile\n+14155552671\n');
      const { data } = res.json<{ data: ContactImport }>();
      const jobs = await queryRows<{ data: { importId: string } }>(
        h.database.db,
        sql`select data from ${sql.identifier(h.jobsSchema)}.job where name = 'contacts.import' and data->>'importId' = ${data.id}`,
      );
      expect(jobs).toEqual([{ data: { importId: data.id } }]);
    });

    it('resumes after the last committed batch when an attempt dies, with the same counts', async () => {
      const { accountId, token } = await ownAccount();
      const csv = 'mobile,firstName\n+14155552671,A\n+14155552672,B\n,C\n+14155552674,D\n+14155552671,E\n+14155552676,F\n';
      const res = await h.upload(accountId, token, csv);
      const { data } = res.json<{ data: ContactImport }>();
      await expect(
        h.runImport(data.id, {
          batchSize: 2,
          onCommitted: () => {
            throw new Error('the worker died');
          },
        }),
      ).rejects.toThrow('the worker died');
      const half = await h.getImport(accountId, token, data.id);
      expect(half).toMatchObject({ status: 'running', progress: { processedRows: 2, totalRows: 6 } });
      expect(half.result).toEqual(result({ submitted: 2, success: 2 }));
      expect(await countRows(h.database.db, 'contacts', accountId)).toBe(2);

      await h.runImport(data.id, { batchSize: 2 });
      const done = await h.getImport(accountId, token, data.id);
      expect(done).toMatchObject({ status: 'completed', progress: { processedRows: 6, totalRows: 6 } });
      expect(done.result).toEqual(
        result({
          submitted: 6,
          success: 4,
          missingMobile: 1,
          duplicates: 1,
          errors: [
            { row: 4, reason: 'Number is missing' },
            { row: 6, reason: importRowMessages.duplicate(2) },
          ],
        }),
      );
      expect((await contactsOf(h.database.db, accountId)).map((c) => c.firstName)).toEqual(['A', 'B', 'D', 'F']);
      // A finished import is not run again.
      await h.runImport(data.id);
      expect((await h.getImport(accountId, token, data.id)).result).toEqual(done.result);
    });

    it('announces progress (throttled) and the end to the account', async () => {
      const { accountId, token } = await ownAccount();
      const rows = Array.from({ length: 5 }, (_, i) => `+1415555267${i}`).join('\n');
      const res = await h.upload(accountId, token, `mobile\n${rows}\n`);
      const { data } = res.json<{ data: ContactImport }>();
      let clock = 0;
      await h.runImport(data.id, { batchSize: 2, now: () => (clock += 1000) });
      const announced = await h.database.db
        .select({ type: events.type, data: events.data })
        .from(events)
        .where(eq(events.accountId, accountId))
        .orderBy(asc(events.id));
      expect(announced.map((e) => [e.type, (e.data as { import: ContactImport }).import.progress.processedRows])).toEqual([
        ['contactImportProgress', 2],
        ['contactImportProgress', 4],
        ['contactsImported', 5],
      ]);
      expect((announced.at(-1)?.data as { import: ContactImport }).import).toEqual(await h.getImport(accountId, token, data.id));
    });
  });

  it('marks an import failed when its job cannot be queued', async () => {
    // The plain API harness has a job queue that was never started: sending a job fails there.
    const plain = await startApiHarness(kind);
    try {
      const admin = await createUser(plain.database.db);
      const account = await createAccount(plain.database.db, { [admin.id]: 'Administrator' });
      const res = await plain.app.inject({
        method: 'POST',
        url: `/v1/accounts/${account.id}/contacts/imports`,
        headers: { authorization: `Bearer ${plain.tokenFor(admin.id)}`, 'content-type': 'text/csv' },
        payload: 'mobile\n+14155552671\n',
      });
      expect(res.statusCode).toBe(500);
      const stored = await plain.database.db
        .select({ status: contactImports.status, error: contactImports.errorMessage, file: contactImports.file })
        .from(contactImports)
        .where(eq(contactImports.accountId, account.id));
      expect(stored).toEqual([{ status: 'failed', error: IMPORT_NOT_QUEUED_MESSAGE, file: null }]);
    } finally {
      await plain.close();
    }
  });

  describe('JSON rows (POST .../contacts/import)', () => {
    it('imports at once with the same rules and answers the result', async () => {
      const { accountId, token } = await ownAccount();
      const res = await h.app.inject({
        method: 'POST',
        url: `/v1/accounts/${accountId}/contacts/import?mergeStrategy=append`,
        headers: { authorization: `Bearer ${token}` },
        payload: {
          data: [
            { mobile: '+1 415 555 2671', firstName: 'Ann', tags: ['VIP', 'Patients'], 'Shoe Size': 38 },
            { cell: '07400 123456', country: 'GB', first: 'Chloé' },
            { mobile: null, firstName: 'Nobody' },
            { mobile: '4155552671', email: 'bad' },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json<{ data: ContactImport }>();
      expect(data).toMatchObject({ status: 'completed', fileName: 'JSON rows', progress: { processedRows: 4, totalRows: 4 } });
      expect(data.result).toEqual(
        result({ submitted: 4, success: 2, missingMobile: 1, errors: [{ row: 3, reason: 'Number is missing' }, { row: 4, reason: 'Invalid email address' }] }),
      );
      expect((await contactsOf(h.database.db, accountId)).map((c) => [c.mobile, c.firstName, c.tags, c.attributes])).toEqual([
        ['+14155552671', 'Ann', ['VIP', 'Patients'], { shoeSize: '38' }],
        ['+447400123456', 'Chloé', [], {}],
      ]);
      expect(await h.getImport(accountId, token, data.id)).toEqual(data);
    });

    it('refuses more than 1,000 rows, and rows without a mobile key', async () => {
      const { accountId, token } = await ownAccount();
      const call = (payload: object) =>
        h.app.inject({ method: 'POST', url: `/v1/accounts/${accountId}/contacts/import`, headers: { authorization: `Bearer ${token}` }, payload });
      const many = await call({ data: Array.from({ length: 1001 }, () => ({ mobile: '+14155552671' })) });
      expect(many.statusCode).toBe(400);
      expect(many.json<{ error: { message: string } }>().error.message).toContain('At most 1000 rows per call');
      const noMobile = await call({ data: [{ name: 'Ann' }] });
      expect(noMobile.json()).toEqual({ error: { code: 'bad_request', message: 'Missing Mandatory Field: You must specify a field mapping for mobile' } });
      expect(await countRows(h.database.db, 'contacts', accountId)).toBe(0);
    });
  });

  describe('roles and accounts', () => {
    it('lets every role but Read Only upload; everyone may follow an import', async () => {
      const fixtures = await roleFixtures(h.database.db);
      const tokens = Object.fromEntries(roles.map((r) => [r, h.tokenFor(fixtures.users[r])])) as Record<Role, string>;
      for (const role of roles) {
        const res = await h.upload(fixtures.accountId, tokens[role], `mobile\n+1415555267${roles.indexOf(role)}\n`);
        expect(res.statusCode, role).toBe(role === 'ReadOnly' ? 403 : 202);
        const json = await h.app.inject({
          method: 'POST',
          url: `/v1/accounts/${fixtures.accountId}/contacts/import`,
          headers: { authorization: `Bearer ${tokens[role]}` },
          payload: { data: [{ mobile: '+14155552679' }] },
        });
        expect(json.statusCode, role).toBe(role === 'ReadOnly' ? 403 : 200);
      }
      const list = await h.app.inject({
        method: 'GET',
        url: `/v1/accounts/${fixtures.accountId}/contacts/imports`,
        headers: { authorization: `Bearer ${tokens.ReadOnly}` },
      });
      const page = list.json<{ data: ContactImport[]; pagination: object }>();
      expect(page.pagination).toEqual({ totalCount: 6, offset: 0, limit: 10 });
      const one = page.data[0];
      if (!one) throw new Error('no import listed');
      expect(await h.getImport(fixtures.accountId, tokens.ReadOnly, one.id)).toEqual(one);
    });

    it("answers 404 for another account's import, and for an id that is not one", async () => {
      const a = await ownAccount();
      const b = await ownAccount();
      const res = await h.upload(b.accountId, b.token, 'mobile\n+14155552671\n');
      const { data } = res.json<{ data: ContactImport }>();
      for (const id of [data.id, 'not-an-id', randomUUID()]) {
        const answer = await h.app.inject({
          method: 'GET',
          url: `/v1/accounts/${a.accountId}/contacts/imports/${id}`,
          headers: { authorization: `Bearer ${a.token}` },
        });
        expect(answer.statusCode).toBe(404);
        expect(answer.json()).toEqual({ error: { code: 'not_found', message: 'The import was not found.' } });
      }
      const upload = await h.upload(b.accountId, a.token, 'mobile\n+14155552671\n');
      expect(upload.statusCode).toBe(404);
    });
  });
});
