import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyCountsCsvColumns, messagesCsvColumns, optOutCsvColumns, type Role } from '@parley/shared';
import { createCarrierRegistry } from '../../carriers/registry.js';
import { queryRows, type Database } from '../../../platform/db/client.js';
import { contactLists, contacts, listMembers } from '../../../platform/db/schema/index.js';
import { buildApp, type App } from '../../../app/httpApp.js';
import { jobDefinitions } from '../../../app/jobDefinitions.js';
import { messagesReportJob, type MessagesReportData } from '../messagesReportJob.js';
import { JobQueue, type JobContext } from '../../../platform/jobs/queue.js';
import { createLocalMailbox } from '../../../platform/mail/localMailbox.js';
import { createMessageHandlers } from '../../messaging/handlers.js';
import { openReportFile, pruneReportFiles, writeReportFile } from '../files.js';
import { messagesCsv } from '../messagesCsv.js';
import { optOutCsv } from '../optOuts.js';
import { createReportServices, type ReportServices } from '../services.js';
import { TableAuthenticator } from '../../../test/apiHarness.js';
import { testConfig } from '../../../test/config.js';
import { addConversation, addMember, addMessage, type ConversationFixture } from '../../../test/conversations.js';
import { openTestDatabase, testDatabaseKinds, uniqueJobsSchema, type TestDatabaseKind } from '../../../test/databases.js';
import { closeAccount } from '../../../test/factories.js';
import { silentLogger } from '../../../test/logger.js';
import { linkIn, mailsTo } from '../../../test/mail.js';
import { addContact, sendingAccount, type SendingAccount } from '../../../test/sendingFixtures.js';
import { changedSignature, textsDecodingAs } from '../../../test/signatures.js';
import type { Config } from '../../../platform/config.js';

const PUBLIC_URL = 'https://parley.test';
const FILES = `${PUBLIC_URL}/v1/reports/files/`;

/** The API with a started job queue that does not work: a request queues for real, the test runs the job. */
interface ReportHarness {
  app: App;
  database: Database;
  config: Config;
  jobsSchema: string;
  reports: ReportServices;
  tokenFor(userId: string): string;
  get(url: string, token?: string): Promise<LightMyRequestResponse>;
  runJob(data: MessagesReportData, options?: { retryCount?: number; reports?: ReportServices }): Promise<void>;
  close(): Promise<void>;
}

async function startReportHarness(kind: TestDatabaseKind): Promise<ReportHarness> {
  const database = await openTestDatabase(kind);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-reports-test-'));
  const config = testConfig({ DATA_DIR: dataDir, PUBLIC_URL });
  const log = silentLogger();
  const jobsSchema = uniqueJobsSchema();
  const mailer = createLocalMailbox(database.db);
  const jobs = new JobQueue({ database, log, work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1, schema: jobsSchema });
  await jobs.start([messagesReportJob({ config, database, mailer })]);
  const authenticator = new TableAuthenticator();
  const app = await buildApp(
    {
      config,
      log,
      database,
      jobs,
      authenticator,
      mailer,
      carriers: createCarrierRegistry('simulator', { deployment: {} }),
      carrierHandlers: createMessageHandlers({ database, log }),
    },
    { webDist: null },
  );
  await app.ready();
  const reports = createReportServices(config);
  return {
    app,
    database,
    config,
    jobsSchema,
    reports,
    tokenFor: (userId) => authenticator.add({ userId, accountIds: [] }),
    get: (url, token) => app.inject({ method: 'GET', url, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } }),
    async runJob(data, options = {}) {
      const job = messagesReportJob({ config, database, mailer, reports: options.reports ?? reports });
      const context: JobContext = { jobId: uuidv7(), retryCount: options.retryCount ?? 0, log, signal: new AbortController().signal };
      await job.handler(data, context);
    },
    async close() {
      await app.close();
      await jobs.stop(1000);
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const header = (columns: readonly string[]): string => `${columns.join(',')}\r\n`;
const lines = (...rows: string[]): string => rows.map((row) => `${row}\r\n`).join('');
/** A number as a CSV cell: it starts with '+', so it is defused like a formula and stays text. */
const num = (e164: string): string => `'${e164}`;

/**
 * Account A: traffic on 1 and 2 March 2025 around the UTC midnight, opt-outs on the 2nd, cells that need
 * escaping. Account B: traffic on the same days that must never show in A's reports.
 */
interface Fixture {
  a: SendingAccount;
  b: SendingAccount;
  ada: ConversationFixture;
  eve: ConversationFixture;
  bob: ConversationFixture;
  tokens: Record<Role, string>;
}

async function seed(h: ReportHarness): Promise<Fixture> {
  const db = h.database.db;
  const a = await sendingAccount(db);
  const b = await sendingAccount(db);
  const ada = await addConversation(db, a, { firstName: 'Ada', lastName: 'Lovelace' });
  // A name a spreadsheet would run as a formula, and a comma and quotes to escape.
  const eve = await addConversation(db, a, { firstName: '=HYPERLINK("http://evil.test")', lastName: 'Smith, "Jr"' });
  const bob = await addConversation(db, b, { firstName: 'Bob', lastName: 'Other' });
  const at = (iso: string) => new Date(iso);
  await addMessage(db, a, ada, {
    direction: 'outbound',
    status: 'delivered',
    body: 'Hello Ada',
    segments: 2,
    price: '0.0200',
    createdAt: at('2025-03-01T08:00:00.000Z'),
  });
  await addMessage(db, a, ada, {
    direction: 'outbound',
    status: 'failed',
    body: 'Refunded',
    segments: 1,
    price: '0.0100',
    refundedAt: at('2025-03-01T23:59:59.000Z'),
    errorCode: '21610',
    errorDescription: 'Unsubscribed recipient',
    createdAt: at('2025-03-01T23:59:59.999Z'),
  });
  await addMessage(db, a, eve, {
    direction: 'outbound',
    status: 'undelivered',
    body: '@SUM(1+1)',
    segments: 1,
    price: '0.0075',
    createdAt: at('2025-03-02T00:00:00.000Z'),
  });
  await addMessage(db, a, eve, { direction: 'outbound', status: 'queued', body: 'Later', segments: 3, price: '0.0225', createdAt: at('2025-03-02T12:00:00.000Z') });
  await addMessage(db, a, eve, { direction: 'inbound', status: 'received', body: 'STOP', createdAt: at('2025-03-02T13:00:00.000Z') });
  await addMessage(db, b, bob, { direction: 'outbound', status: 'delivered', body: 'Not yours', segments: 5, price: '0.5000', createdAt: at('2025-03-01T09:00:00.000Z') });
  await addMessage(db, b, bob, { direction: 'inbound', status: 'received', body: 'Not yours either', createdAt: at('2025-03-02T09:00:00.000Z') });

  // Opt-outs: Eve of the whole account (STOP); Ada of one list; someone of a list but back in; B's own.
  await db.update(contacts).set({ optedOutAt: at('2025-03-02T13:00:00.000Z') }).where(sql`id = ${eve.contactId}`);
  await db.update(contacts).set({ optedOutAt: at('2025-03-02T10:00:00.000Z') }).where(sql`id = ${bob.contactId}`);
  const listId = uuidv7();
  await db.insert(contactLists).values({ id: listId, accountId: a.accountId, name: 'Newsletter' });
  const carol = await addContact(db, a.accountId, { firstName: 'Carol', lastName: '', email: 'carol@example.test' });
  await db.insert(listMembers).values([
    { id: uuidv7(), accountId: a.accountId, listId, contactId: ada.contactId, status: 'optedOut', optOutAt: at('2025-03-02T15:30:00.000Z'), consentSource: 'manual' },
    { id: uuidv7(), accountId: a.accountId, listId, contactId: carol.id, status: 'optedIn', optInAt: at('2025-03-02T16:00:00.000Z'), optOutAt: at('2025-03-01T16:00:00.000Z') },
  ]);
  const bList = uuidv7();
  await db.insert(contactLists).values({ id: bList, accountId: b.accountId, name: 'Their list' });
  await db.insert(listMembers).values({ id: uuidv7(), accountId: b.accountId, listId: bList, contactId: bob.contactId, status: 'optedOut', optOutAt: at('2025-03-02T11:00:00.000Z') });

  const tokens = { Administrator: h.tokenFor(a.adminId) } as Record<Role, string>;
  for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as const) tokens[role] = h.tokenFor(await addMember(db, a.accountId, role));
  return { a, b, ada, eve, bob, tokens };
}

describe.each(testDatabaseKinds)('reports on %s', (kind) => {
  let h: ReportHarness;
  let f: Fixture;
  const url = (accountId: string, report: string) => `/v1/accounts/${accountId}/reports/${report}`;

  beforeAll(async () => {
    h = await startReportHarness(kind);
    f = await seed(h);
  });
  afterAll(async () => {
    await h.close();
  });

  describe('GET reports/dailycounts (Summary)', () => {
    it('counts each UTC day of the window from the account’s own messages and opt-outs', async () => {
      const res = await h.get(`${url(f.a.accountId, 'dailycounts')}?from=2025-02-28&to=2025-03-03`, f.tokens.Administrator);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="summary-2025-02-28-2025-03-03.csv"');
      expect(res.body).toBe(
        header(dailyCountsCsvColumns) +
          lines(
            '2025-02-28,0,0,0,0,0,0,0.0000',
            // 08:00 delivered (2 segments, 0.02) and 23:59:59.999 failed and refunded: spend 0.0200.
            '2025-03-01,2,3,1,1,0,0,0.0200',
            // Midnight undelivered + noon queued, one inbound; Eve's STOP and Ada's list opt-out.
            '2025-03-02,2,4,0,1,1,2,0.0300',
            '2025-03-03,0,0,0,0,0,0,0.0000',
          ),
      );
    });

    it('covers the last 90 days up to today by default', async () => {
      const res = await h.get(url(f.a.accountId, 'dailycounts'), f.tokens.Administrator);
      expect(res.statusCode).toBe(200);
      const rows = res.body.trimEnd().split('\r\n');
      expect(rows).toHaveLength(91);
      expect(rows.at(-1)?.startsWith(`${new Date().toISOString().slice(0, 10)},`)).toBe(true);
    });

    it('refuses malformed or reversed dates and windows over 366 days, with the reason', async () => {
      const bad = async (query: string) => {
        const res = await h.get(`${url(f.a.accountId, 'dailycounts')}?${query}`, f.tokens.Administrator);
        expect(res.statusCode).toBe(400);
        return res.json<{ error: { code: string; message: string } }>().error;
      };
      expect(await bad('from=2025-02-30')).toEqual({ code: 'validation_failed', message: 'from: Use a date as YYYY-MM-DD.' });
      expect((await bad('to=yesterday')).message).toBe('to: Use a date as YYYY-MM-DD.');
      expect((await bad('from=2025-03-02&to=2025-03-01')).message).toBe('from: The start date must not be after the end date.');
      expect((await bad('from=2024-01-01&to=2025-01-01')).message).toBe('to: A summary covers at most 366 days.');
      const res = await h.get(`${url(f.a.accountId, 'dailycounts')}?from=2024-01-01&to=2024-12-31`, f.tokens.Administrator);
      expect(res.statusCode).toBe(200);
    });
  });

  describe('GET reports/optout (Opted Out)', () => {
    it('lists the account-wide opt-outs, then the list opt-outs, escaped and defused', async () => {
      const res = await h.get(url(f.a.accountId, 'optout'), f.tokens.Administrator);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="opted-out-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(res.body).toBe(
        header(optOutCsvColumns) +
          lines(
            `${num(f.eve.mobile)},"'=HYPERLINK(""http://evil.test"") Smith, ""Jr""",,2025-03-02T13:00:00.000Z,Account: STOP reply`,
            `${num(f.ada.mobile)},Ada Lovelace,,2025-03-02T15:30:00.000Z,List: Newsletter (manual)`,
          ),
      );
      expect(res.body).not.toContain(f.bob.mobile);
      expect(res.body).not.toContain('Carol');
    });

    it('pages through any number of opt-outs, each once, ties on the same instant included', async () => {
      const account = await sendingAccount(h.database.db);
      const when = new Date('2025-04-01T00:00:00.123Z');
      const mobiles: string[] = [];
      for (let i = 0; i < 7; i++) mobiles.push((await addContact(h.database.db, account.accountId, { optedOutAt: when })).mobileNumber);
      let csv = '';
      for await (const chunk of optOutCsv(h.database.db, account.accountId, 3)) csv += chunk;
      const rows = csv.trimEnd().split('\r\n').slice(1);
      expect(rows.map((row) => row.split(',')[0]).sort()).toEqual(mobiles.map(num).sort());
    });
  });

  describe('GET reports/messages (Detailed)', () => {
    const email = 'reports@example.test';

    it('checks the address and queues nothing when it is bad', async () => {
      const missing = await h.get(url(f.a.accountId, 'messages'), f.tokens.Administrator);
      expect(missing.statusCode).toBe(400);
      expect(missing.json<{ error: { message: string } }>().error.message).toBe('email: Required');
      const bad = await h.get(`${url(f.a.accountId, 'messages')}?email=not-an-address`, f.tokens.Administrator);
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ error: { message: string } }>().error.message).toBe('email: Invalid email address');
      const jobs = await queryRows<{ n: number }>(
        h.database.db,
        sql`select count(*)::int as n from ${sql.identifier(h.jobsSchema)}.job where name = 'reports.messages' and data->>'email' = 'not-an-address'`,
      );
      expect(jobs).toEqual([{ n: 0 }]);
    });

    it('answers 202 at once and queues the job; the job writes the file and e-mails a link that downloads it', async () => {
      const res = await h.get(`${url(f.a.accountId, 'messages')}?email=${encodeURIComponent(' Reports@Example.test ')}`, f.tokens.Administrator);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toEqual({ data: { email, linkValidDays: 7 } });
      const queued = await queryRows<{ data: MessagesReportData }>(
        h.database.db,
        sql`select data from ${sql.identifier(h.jobsSchema)}.job where name = 'reports.messages' and data->>'accountId' = ${f.a.accountId}`,
      );
      expect(queued).toHaveLength(1);
      const data = queued[0]?.data;
      if (data === undefined) throw new Error('no job');
      expect(data).toEqual({ reportId: expect.any(String) as string, accountId: f.a.accountId, email });
      expect(await mailsTo(h.database.db, email)).toEqual([]);

      await h.runJob(data);
      expect(fs.existsSync(path.join(h.reports.dir, `${data.reportId}.csv`))).toBe(true);
      const [mail] = await mailsTo(h.database.db, email);
      expect(mail?.subject).toBe(`Your detailed message report for Sending ${f.a.adminId}`);
      expect(mail?.text).toContain('is ready: 5 messages, as a CSV file.');
      expect(mail?.text).toContain('do not forward this email');
      const link = linkIn(mail, FILES);
      expect(link).toMatch(new RegExp(`^${FILES}${data.reportId}\\?expires=\\d+&sig=[\\w-]+$`));

      // The link needs no token.
      const download = await h.get(link.slice(PUBLIC_URL.length));
      expect(download.statusCode, download.body).toBe(200);
      expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(download.headers['content-disposition']).toBe(`attachment; filename="messages-${data.reportId}.csv"`);
      expect(download.body).toBe(
        header(messagesCsvColumns) +
          lines(
            `2025-03-01T08:00:00.000Z,outbound,${num(f.a.number)},${num(f.ada.mobile)},Ada Lovelace,Hello Ada,delivered,,2,0.0200`,
            `2025-03-01T23:59:59.999Z,outbound,${num(f.a.number)},${num(f.ada.mobile)},Ada Lovelace,Refunded,failed,21610: Unsubscribed recipient,1,0.0100`,
            `2025-03-02T00:00:00.000Z,outbound,${num(f.a.number)},${num(f.eve.mobile)},"'=HYPERLINK(""http://evil.test"") Smith, ""Jr""",'@SUM(1+1),undelivered,,1,0.0075`,
            `2025-03-02T12:00:00.000Z,outbound,${num(f.a.number)},${num(f.eve.mobile)},"'=HYPERLINK(""http://evil.test"") Smith, ""Jr""",Later,queued,,3,0.0225`,
            `2025-03-02T13:00:00.000Z,inbound,${num(f.eve.mobile)},${num(f.a.number)},"'=HYPERLINK(""http://evil.test"") Smith, ""Jr""",STOP,received,,0,0.0000`,
          ),
      );
      expect(download.body).not.toContain('Not yours');
    });

    it('is run by a worker of the deployment’s job definitions, which e-mails the link', async () => {
      const to = 'worker@example.test';
      const worker = new JobQueue({
        database: h.database,
        log: silentLogger(),
        work: true,
        schedule: false,
        retryLimit: 0,
        retryDelaySeconds: 1,
        schema: h.jobsSchema,
        pollingIntervalSeconds: 0.5,
      });
      await worker.start(jobDefinitions(h.config, h.database, worker).filter((job) => job.name.startsWith('reports.')));
      try {
        const res = await h.get(`${url(f.a.accountId, 'messages')}?email=${to}`, f.tokens.Administrator);
        expect(res.statusCode).toBe(202);
        let mails = await mailsTo(h.database.db, to);
        for (let waited = 0; mails.length === 0 && waited < 30_000; waited += 250) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          mails = await mailsTo(h.database.db, to);
        }
        const download = await h.get(linkIn(mails[0], FILES).slice(PUBLIC_URL.length));
        expect(download.statusCode).toBe(200);
        expect(download.body.split('\r\n')).toHaveLength(7);
      } finally {
        await worker.stop(1000);
      }
    });

    it('refuses a link that has expired, a changed signature, another id or no signature', async () => {
      const reportId = uuidv7();
      const chunks = async function* () {
        yield await Promise.resolve('date\r\n');
      };
      await writeReportFile(h.reports.dir, reportId, chunks());
      const signer = await h.reports.signer();
      const good = signer.link(reportId, new Date(Date.now() + 60_000)).slice(PUBLIC_URL.length);
      expect((await h.get(good)).statusCode).toBe(200);

      const refused = async (pathAndQuery: string) => {
        const res = await h.get(pathAndQuery);
        expect(res.statusCode).toBe(403);
        return res.json<{ error: { code: string; message: string } }>().error;
      };
      const expired = signer.link(reportId, new Date(Date.now() - 1000)).slice(PUBLIC_URL.length);
      expect(await refused(expired)).toEqual({ code: 'forbidden', message: 'This report link has expired. Request the report again.' });
      const invalid = { code: 'forbidden', message: 'This report link is not valid.' };
      const sig = /sig=([\w-]+)/.exec(good)?.[1] ?? '';
      expect(await refused(good.replace(`sig=${sig}`, `sig=${changedSignature(sig)}`))).toEqual(invalid);
      // Texts that decode to the signature's bytes are not the signature.
      for (const other of textsDecodingAs(sig)) {
        expect(await refused(good.replace(`sig=${sig}`, `sig=${encodeURIComponent(other)}`))).toEqual(invalid);
      }
      // A later expiry with the old signature.
      expect(await refused(good.replace(/expires=(\d+)/, (_m, s: string) => `expires=${String(Number(s) + 86_400)}`))).toEqual(invalid);
      expect(await refused(good.replace(reportId, uuidv7()))).toEqual(invalid);
      expect(await refused(`/v1/reports/files/${reportId}`)).toEqual(invalid);
      expect(await refused(`/v1/reports/files/${reportId}?expires=abc&sig=${sig}`)).toEqual(invalid);

      // Signed, but the file is gone (pruned).
      const gone = signer.link(uuidv7(), new Date(Date.now() + 60_000)).slice(PUBLIC_URL.length);
      expect((await h.get(gone)).statusCode).toBe(404);
    });

    it('sends nothing for an account closed before the job ran', async () => {
      const closed = await sendingAccount(h.database.db);
      await closeAccount(h.database.db, closed.accountId);
      const to = 'closed@example.test';
      const reportId = uuidv7();
      await h.runJob({ reportId, accountId: closed.accountId, email: to });
      expect(await mailsTo(h.database.db, to)).toEqual([]);
      expect(await openReportFile(h.reports.dir, reportId)).toBeNull();
    });

    it('retries a failure, and after the last attempt tells the address it failed', async () => {
      const to = 'failure@example.test';
      const blocked = path.join(h.config.dataDir, 'not-a-directory');
      fs.writeFileSync(blocked, '');
      const broken: ReportServices = { dir: path.join(blocked, 'reports'), signer: () => h.reports.signer() };
      const data = { reportId: uuidv7(), accountId: f.a.accountId, email: to };
      await expect(h.runJob(data, { retryCount: 0, reports: broken })).rejects.toThrow();
      expect(await mailsTo(h.database.db, to)).toEqual([]);
      await expect(h.runJob(data, { retryCount: 3, reports: broken })).rejects.toThrow();
      const [mail] = await mailsTo(h.database.db, to);
      expect(mail?.subject).toBe(`Your detailed message report for Sending ${f.a.adminId} could not be made`);
    });

    it('pages through any number of messages, each once, ties on the same instant included', async () => {
      const account = await sendingAccount(h.database.db);
      const conversation = await addConversation(h.database.db, account);
      const createdAt = new Date('2025-05-05T05:05:05.555Z');
      for (let i = 0; i < 7; i++) await addMessage(h.database.db, account, conversation, { body: `message ${String(i)}`, createdAt });
      const tally = { rows: 0 };
      let csv = '';
      for await (const chunk of messagesCsv(h.database.db, account.accountId, tally, 3)) csv += chunk;
      const bodies = csv.trimEnd().split('\r\n').slice(1).map((row) => row.split(',')[5]);
      expect(bodies.sort()).toEqual(Array.from({ length: 7 }, (_v, i) => `message ${String(i)}`));
      expect(tally.rows).toBe(7);
    });
  });

  describe('who may download', () => {
    const reports = ['dailycounts', 'optout', 'messages?email=someone@example.test'];

    it('refuses every role but Administrator', async () => {
      for (const report of reports) {
        for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as const) {
          const res = await h.get(url(f.a.accountId, report), f.tokens[role]);
          expect(res.statusCode, `${report} as ${role}`).toBe(403);
        }
      }
    });

    it("answers 404 for another account's reports and 401 without a token", async () => {
      for (const report of reports) {
        const res = await h.get(url(f.b.accountId, report), f.tokens.Administrator);
        expect(res.statusCode, report).toBe(404);
        expect(res.body).not.toContain('Not yours');
        expect((await h.get(url(f.a.accountId, report))).statusCode).toBe(401);
      }
    });
  });
});

describe('pruneReportFiles', () => {
  it('removes report and temporary files older than the limit and keeps the rest', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-reports-prune-'));
    try {
      const old = new Date(Date.now() - 10 * 86_400_000);
      for (const name of ['old.csv', 'old.csv.x.tmp', 'new.csv', 'signing.key']) fs.writeFileSync(path.join(dir, name), 'x');
      for (const name of ['old.csv', 'old.csv.x.tmp', 'signing.key']) fs.utimesSync(path.join(dir, name), old, old);
      expect(await pruneReportFiles(dir, new Date(Date.now() - 86_400_000))).toBe(2);
      expect(fs.readdirSync(dir).sort()).toEqual(['new.csv', 'signing.key']);
      expect(await pruneReportFiles(path.join(dir, 'missing'), new Date())).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
