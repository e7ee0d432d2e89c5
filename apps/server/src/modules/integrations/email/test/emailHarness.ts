import type { LightMyRequestResponse } from 'fastify';
import { createTransport, type Transporter } from 'nodemailer';
import { buildApp, type App } from '../../../../app/httpApp.js';
import { createCarrierRegistry } from '../../../carriers/registry.js';
import { createMessageHandlers } from '../../../messaging/handlers.js';
import type { Database } from '../../../../platform/db/client.js';
import { JobQueue, type JobContext, type JobDefinition } from '../../../../platform/jobs/queue.js';
import { createLocalMailbox } from '../../../../platform/mail/localMailbox.js';
import type { InboundSmtpListener } from '../../../../platform/mail/inboundSmtp.js';
import { TableAuthenticator, type HttpMethod } from '../../../../test/apiHarness.js';
import { testConfig } from '../../../../test/config.js';
import { openTestDatabase, uniqueJobsSchema, type TestDatabaseKind } from '../../../../test/databases.js';
import { silentLogger } from '../../../../test/logger.js';
import { startEmailListener } from '../emailListener.js';
import { emailReplyJob } from '../replyJob.js';
import type { Config } from '../../../../platform/config.js';

export const MAIL_DOMAIN = 'in.parley.test';
export const WEBHOOK_SECRET = 'a-relay-secret-of-the-operator';

export interface EmailHarness {
  app: App;
  database: Database;
  config: Config;
  jobs: JobQueue;
  replyJob: JobDefinition<never>;
  smtp: Transporter;
  tokenFor(userId: string): string;
  call(method: HttpMethod, url: string, token: string, body?: object): Promise<LightMyRequestResponse>;
  runReplies(): Promise<void>;
  close(): Promise<void>;
}

const jobContext: JobContext = { jobId: 'test', retryCount: 0, log: silentLogger(), signal: new AbortController().signal };

/** The app with inbound mail on, its SMTP listener on a free port, the local mailbox, and a nodemailer client of the listener. */
export async function startEmailHarness(kind: TestDatabaseKind): Promise<EmailHarness> {
  const database = await openTestDatabase(kind);
  const log = silentLogger();
  const config = testConfig({ INBOUND_MAIL_DOMAIN: MAIL_DOMAIN, INBOUND_SMTP_PORT: '0', INBOUND_SMTP_HOST: '127.0.0.1', INBOUND_MAIL_WEBHOOK_SECRET: WEBHOOK_SECRET });
  const jobs = new JobQueue({ database, log, work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1, schema: uniqueJobsSchema() });
  const mailer = createLocalMailbox(database.db);
  const replyJob = emailReplyJob({ db: database.db, config, jobs, mailer }) as unknown as JobDefinition<never>;
  await jobs.start([replyJob]);
  const authenticator = new TableAuthenticator();
  const app = await buildApp(
    { config, log, database, jobs, authenticator, mailer, carriers: createCarrierRegistry('simulator', { deployment: {} }), carrierHandlers: createMessageHandlers({ database, log }) },
    { webDist: null },
  );
  await app.ready();
  const listener: InboundSmtpListener | null = await startEmailListener({ db: database.db, config, mailer }, log);
  if (listener === null) throw new Error('the listener did not start');
  const smtp = createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
  return {
    app,
    database,
    config,
    jobs,
    replyJob,
    smtp,
    tokenFor: (userId) => authenticator.add({ userId, accountIds: [] }),
    call: (method, url, token, body) => app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body }) }),
    runReplies: () => replyJob.handler({} as never, jobContext),
    async close() {
      smtp.close();
      await listener.close();
      await app.close();
      await jobs.stop(1000);
      await database.close();
    },
  };
}
