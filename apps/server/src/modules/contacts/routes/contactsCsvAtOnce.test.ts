import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importApiMessages,
  importFileMessages,
  importRowMessages,
  roles,
  type Contact,
  type ContactImport,
  type ContactUpload,
  type Role,
} from '@parley/shared';
import { CSV_AT_ONCE_FILE_NAME } from '../contactImportAtOnce.js';
import { queryRows, type Queryable } from '../../../platform/db/client.js';
import { contacts } from '../../../platform/db/schema/index.js';
import { outboxEvents } from '../../../test/accounts.js';
import { startApiHarness, type ApiHarness } from '../../../test/apiHarness.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { roleFixtures } from '../../../test/factories.js';

/*
 * POST /v1/accounts/{acc}/contacts with a text/csv body: the hosted product's import in one call (its
 * ContactUploadResponse), through the same importer as the background upload. The contract replay
 * (test/contract) checks the answer against the documented schema; this file checks what it does.
 */

const fixture = (name: string): Buffer => fs.readFileSync(fileURLToPath(new URL(`../import/fixtures/${name}`, import.meta.url)));

async function count(q: Queryable, table: 'contacts' | 'contact_imports', accountId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(q, sql`select count(*)::int as n from ${sql.identifier(table)} where account_id = ${accountId}`);
  return row?.n ?? 0;
}

describe.each(testDatabaseKinds)('a CSV file imported in one call at POST .../contacts on %s', (kind) => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await startApiHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  async function account() {
    const fixtures = await roleFixtures(h.database.db);
    const tokens = {} as Record<Role, string>;
    for (const role of roles) tokens[role] = h.tokenFor(fixtures.users[role]);
    const base = `/v1/accounts/${fixtures.accountId}`;
    /** POST .../contacts with the body as it is and the content type given (text/csv by default). */
    const post = (body: Buffer | string, options: { query?: string; role?: Role; contentType?: string } = {}) =>
      h.app.inject({
        method: 'POST',
        url: `${base}/contacts${options.query ?? ''}`,
        headers: { authorization: `Bearer ${tokens[options.role ?? 'Administrator']}`, 'content-type': options.contentType ?? 'text/csv' },
        payload: body,
      });
    const uploaded = async (body: Buffer | string, options: { query?: string; role?: Role } = {}): Promise<ContactUpload> => {
      const res = await post(body, options);
      expect(res.statusCode, res.body).toBe(201);
      const answer = res.json<{ success: boolean; data: ContactUpload }>();
      expect(answer.success).toBe(true);
      return answer.data;
    };
    return { accountId: fixtures.accountId, tokens, base, post, uploaded };
  }

  it('imports the rows at once and answers the counts, the refused rows and the contacts, in the order of the file', async () => {
    const a = await account();
    await a.uploaded('mobile,firstName\n+14155552671,Existing\n');
    const csv = [
      'Mobile,First Name,Last Name,Email,Tags,Shoe Size',
      '(415) 555-2671,Ann,Lee,ann@example.com,vip,38',
      '+1 415 555 2672,Bob,,,,',
      ',Nobody,Here,nobody@example.com,,',
      '4155552672,Bob again,,,,',
      '+14155552673,Eve,Adams,not-an-address,,',
      '',
      '12345,Short,Number,,,',
    ].join('\n');
    const data = await a.uploaded(csv);
    expect(data).toMatchObject({ submitted: 6, success: 3, inserted: 2, updated: 1, missingMobile: 1, duplicates: 1 });
    // Refused rows as the contract lists them (contacts), named as the file names them, each with why.
    expect(data.errors).toEqual([
      { row: 4, firstName: 'Nobody', lastName: 'Here', email: 'nobody@example.com', error: { description: importRowMessages.missingMobile } },
      { row: 5, firstName: 'Bob again', mobile: { number: '4155552672' }, error: { description: importRowMessages.duplicate(3) } },
      { row: 6, firstName: 'Eve', lastName: 'Adams', mobile: { number: '+14155552673' }, email: 'not-an-address', error: { description: importRowMessages.email } },
    ]);
    expect(data.contacts.map((c) => [c.mobile.number, c.firstName, c.valid])).toEqual([
      ['+14155552671', 'Ann', true],
      ['+14155552672', 'Bob', true],
      ['12345', 'Short', false],
    ]);
    const [ann, bob, short] = data.contacts as [Contact, Contact, Contact];
    expect(ann).toMatchObject({ lastName: 'Lee', email: 'ann@example.com', tags: [{ tag: 'vip', visible: true }], attributes: { shoeSize: '38' } });
    // The contacts as GET answers them: what a contact does not have is left out, not null.
    expect((await h.call('GET', `${a.base}/contacts/${ann.id}`, a.tokens.ReadOnly)).json()).toEqual({ data: ann });
    expect(bob).not.toHaveProperty('email');
    expect(short).toMatchObject({ error: { description: 'Country or Number is not valid' } });
    expect(await count(h.database.db, 'contacts', a.accountId)).toBe(3);

    // Recorded as a completed import, announced like the others.
    const recorded = await h.call('GET', `${a.base}/contacts/imports/${data.importId}`, a.tokens.ReadOnly);
    expect(recorded.json<{ data: ContactImport }>().data).toMatchObject({
      status: 'completed',
      fileName: CSV_AT_ONCE_FILE_NAME,
      fileSize: Buffer.byteLength(csv),
      mergeStrategy: 'append',
      result: { submitted: 6, success: 3, missingMobile: 1, duplicates: 1 },
    });
    const announced = await outboxEvents(h.database.db, 'contactsImported', a.accountId);
    expect(announced.map((e) => (e.data as { import: ContactImport }).import.id)).toContain(data.importId);
  });

  it('merges into existing contacts as mergeStrategy says: append by default, core, remove', async () => {
    const a = await account();
    await a.uploaded('mobile,firstName,tags,Color\n+14155552671,Old,Keep,red\n');
    const update = 'mobile,firstName,tags,Size\n+14155552671,New,Fresh,L\n';
    const tagsAndAttributes = async () => {
      const [row] = await h.database.db
        .select({ firstName: contacts.firstName, tags: contacts.tags, attributes: contacts.attributes })
        .from(contacts)
        .where(eq(contacts.accountId, a.accountId))
        .orderBy(asc(contacts.mobileNumber));
      return row;
    };
    expect(await a.uploaded(update, { query: '?mergeStrategy=core' })).toMatchObject({ inserted: 0, updated: 1 });
    expect(await tagsAndAttributes()).toEqual({ firstName: 'New', tags: ['Keep'], attributes: { color: 'red' } });
    await a.uploaded(update);
    expect(await tagsAndAttributes()).toEqual({ firstName: 'New', tags: ['Keep', 'Fresh'], attributes: { color: 'red', size: 'L' } });
    await a.uploaded(update, { query: '?mergeStrategy=remove' });
    expect(await tagsAndAttributes()).toEqual({ firstName: 'New', tags: ['Fresh'], attributes: { size: 'L' } });
  });

  it('reads a text/csv body with a charset and the exports people bring', async () => {
    const a = await account();
    const res = await a.post('mobile,firstName\n+14155552671,Ann\n', { contentType: 'text/csv; charset=utf-8' });
    expect(res.statusCode, res.body).toBe(201);
    const google = await a.uploaded(fixture('google.csv'));
    expect(google.success).toBeGreaterThan(0);
    expect(google.contacts).toHaveLength(google.success);
  });

  it('lets Campaign Managers and Senders import and refuses Read Only, importing nothing', async () => {
    const a = await account();
    expect((await a.uploaded('mobile\n+14155552671\n', { role: 'CampaignManager' })).inserted).toBe(1);
    expect((await a.uploaded('mobile\n+14155552672\n', { role: 'Sender' })).inserted).toBe(1);
    const refused = await a.post('mobile\n+14155552673\n', { role: 'ReadOnly' });
    expect(refused.statusCode).toBe(403);
    expect(await count(h.database.db, 'contacts', a.accountId)).toBe(2);
    expect(await count(h.database.db, 'contact_imports', a.accountId)).toBe(2);
  });

  it("refuses another account's path, importing nothing there", async () => {
    const a = await account();
    const other = await account();
    const res = await h.app.inject({
      method: 'POST',
      url: `${other.base}/contacts`,
      headers: { authorization: `Bearer ${a.tokens.Administrator}`, 'content-type': 'text/csv' },
      payload: 'mobile\n+14155552671\n',
    });
    // An account the caller has no part in is not there for them.
    expect(res.statusCode).toBe(404);
    expect(await count(h.database.db, 'contacts', other.accountId)).toBe(0);
  });

  it('refuses a file it cannot import with a clear message, and changes nothing', async () => {
    const a = await account();
    await a.uploaded('mobile,firstName\n+14155552671,Kept\n');
    const tooMany = `mobile\n${Array.from({ length: 1001 }, (_, i) => `+1415555${String(3000 + i)}`).join('\n')}\n`;
    const cases: [Buffer | string, string, string?][] = [
      ['', importFileMessages.empty],
      ['mobile,firstName\n', importFileMessages.noRows],
      ['mobile,firstName\n\n,,\n', importFileMessages.noRows],
      ['firstName,lastName\nAnn,Lee\n', 'Missing Mandatory Field'],
      ['mobile,firstName\n+14155552672,"never closed\n+14155552673,x\n', importFileMessages.unclosedQuote(2)],
      [fixture('bad-binary.png'), importFileMessages.binary],
      [fixture('bad-latin1.csv'), 'not UTF-8'],
      [tooMany, importApiMessages.tooManyRows],
      ['mobile\n+14155552674\n', 'mergeStrategy: Use append, core or remove', '?mergeStrategy=replace'],
    ];
    for (const [body, message, query] of cases) {
      const res = await a.post(body, { query });
      expect(res.statusCode, `${message}: ${res.body}`).toBe(400);
      expect(res.json<{ error: { message: string } }>().error.message).toContain(message);
    }
    expect(await count(h.database.db, 'contacts', a.accountId)).toBe(1);
    expect(await count(h.database.db, 'contact_imports', a.accountId)).toBe(1);
    const [kept] = await h.database.db.select({ firstName: contacts.firstName }).from(contacts).where(eq(contacts.accountId, a.accountId));
    expect(kept).toEqual({ firstName: 'Kept' });
  });

  it('takes exactly 1,000 rows in one call', async () => {
    const a = await account();
    const rows = Array.from({ length: 1000 }, (_, i) => `+1415555${String(3000 + i)}`);
    const data = await a.uploaded(`mobile\n${rows.join('\n')}\n`);
    expect(data).toMatchObject({ submitted: 1000, success: 1000, inserted: 1000, updated: 0 });
    expect(data.contacts.map((c) => c.mobile.number)).toEqual(rows);
  });

  it('still adds one contact from JSON at the same path, and answers another content type 415', async () => {
    const a = await account();
    const created = await h.call('POST', `${a.base}/contacts`, a.tokens.Sender, { firstName: 'Json', mobile: { number: '+14155552671' } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<{ data: Contact[] }>().data.map((c) => c.firstName)).toEqual(['Json']);
    const xml = await a.post('<contact/>', { contentType: 'application/xml' });
    expect(xml.statusCode).toBe(415);
    expect(await count(h.database.db, 'contacts', a.accountId)).toBe(1);
  });

  it('keeps the JSON create as the operation of the path in the API document, which tells of the CSV body', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { description?: string; requestBody?: { content: Record<string, unknown> } }>>;
    }>();
    const create = doc.paths['/v1/accounts/{acc}/contacts']?.post;
    expect(Object.keys(create?.requestBody?.content ?? {})).toEqual(['application/json']);
    expect(create?.description).toContain('text/csv');
  });
});
