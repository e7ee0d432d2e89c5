import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../platform/config.js';
import { applicationNameOf, openDatabase, type Database } from '../platform/db/client.js';
import { inBackground } from '../platform/db/sessionPriority.js';
import { usePreparedStatements } from '../platform/db/preparedStatements.js';
import { StatisticsKeeper } from '../platform/db/statisticsKeeper.js';
import { expandEventRows, sendingIdle } from '../modules/messaging/index.js';
import { migrateDatabase } from '../platform/db/migrate.js';
import { seedPlans, serverPaymentProvider } from '../modules/billing/index.js';
import { OutboxDispatcher } from '../platform/events/outboxDispatcher.js';
import { buildCarrierRegistry } from '../modules/carriers/index.js';
import type { CarrierRegistry } from '../modules/carriers/index.js';
import { buildApp, type App } from './httpApp.js';
import { MessageDispatcher } from '../modules/messaging/index.js';
import { createMessageHandlers } from '../modules/messaging/index.js';
import type { AppContext } from '../platform/context.js';
import { devAuthenticator, type Authenticator } from '../modules/identity/index.js';
import { loadIssuerKeys, publicJwks, type IssuerKeys } from '../modules/identity/index.js';
import { createIssuer } from '../modules/identity/index.js';
import { externalUserResolver } from '../modules/identity/index.js';
import { knowSharedDomain } from '../modules/links/index.js';
import { createTokenVerifier, refusingRenewedSecrets } from '../modules/identity/index.js';
import { jobDefinitions } from './jobDefinitions.js';
import { JobQueue, type JobDefinition } from '../platform/jobs/queue.js';
import { createMailer, type Mailer } from '../platform/mail/index.js';
import { registerCarrierMedia } from '../modules/media/index.js';
import { inboundMediaJob, inboundMediaScheduler } from '../modules/messaging/index.js';
import { mediaFileAccount } from '../modules/media/index.js';
import { createMediaServices } from '../modules/media/index.js';
import {
  closeRealtimeServer,
  createRealtimeServer,
  type RealtimeServer,
} from '../modules/realtime/index.js';
import { RealtimeFanout } from '../modules/realtime/index.js';
import { startWebPush, type WebPushDelivery } from '../modules/webPush/index.js';
import { startNotificationDelivery, type NotificationDelivery } from '../modules/notifications/index.js';
import { CalendarCancelSubscriber, calendarCancelJob, EmailReplySubscriber, emailReplyJob, IntegrationActivitySubscriber, integrationActivityJob, startEmailListener } from '../modules/integrations/index.js';
import type { InboundSmtpListener } from '../platform/mail/inboundSmtp.js';

export interface RunningServer {
  readonly config: Config;
  readonly database: Database;
  readonly jobs: JobQueue;
  readonly mailer: Mailer;
  readonly carriers: CarrierRegistry;
  /** What bearer tokens (API, websockets) are checked with. */
  readonly authenticator: Authenticator;
  readonly app: App | null;
  readonly io: RealtimeServer | null;
  readonly dispatcher: OutboxDispatcher | null;
  /** The address the web role listens on, when it runs. */
  readonly url: string | null;
  /** Stops taking work, lets in-flight requests, jobs and the dispatch round finish, then closes. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Use this database instead of opening one from the config (tests). It is closed on stop. */
  database?: Database;
  /** The directory of the built web app, or null for none (tests). */
  webDist?: string | null;
  jobsSchema?: string;
  /** The jobs this process knows; the product's own unless a test gives others. */
  jobs?: (config: Config, database: Database) => JobDefinition[];
  dispatcherPollMs?: number;
  jobPollingIntervalSeconds?: number;
}

/**
 * DEV_AUTH's development tokens, or access tokens of the configured issuer: the embedded one (its keys,
 * its subjects are user ids) or an external one (its JWKS; its subjects are mapped to Parley users).
 */
function chooseAuthenticator(config: Config, keys: IssuerKeys | null, database: Database, log: Logger): Authenticator {
  if (config.devAuth) return devAuthenticator;
  const { issuer, audience } = config.identity;
  if (keys) return refusingRenewedSecrets(createTokenVerifier({ issuer, audience, jwks: publicJwks(keys) }), database.db);
  return createTokenVerifier({ issuer, audience, resolveUser: externalUserResolver(database.db, issuer, log) });
}

/** Starts the services the config names (web, worker, scheduler) on one database. */
/**
 * Closes the HTTP server: idle keep-alive connections at once, requests in flight allowed to finish for
 * `timeoutMs`; then every connection left is cut, so a client that never reads its answer cannot hold a
 * shutdown for the length of a keep-alive (docs/deployment.md).
 */
async function closeHttp(app: App, timeoutMs: number): Promise<void> {
  const timer = setTimeout(() => {
    app.server.closeAllConnections();
  }, timeoutMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

export async function startServer(config: Config, log: Logger, options: StartOptions = {}): Promise<RunningServer> {
  const roles = new Set(config.services);
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolMax: config.databasePoolMax,
      applicationName: applicationNameOf(config.services),
    }));
  let jobs: JobQueue | null = null;
  let app: App | null = null;
  let io: RealtimeServer | null = null;
  let fanout: RealtimeFanout | null = null;
  let dispatcher: OutboxDispatcher | null = null;
  let webPush: WebPushDelivery | null = null;
  let notificationDelivery: NotificationDelivery | null = null;
  let messageDispatcher: MessageDispatcher | null = null;
  let inboundMail: InboundSmtpListener | null = null;
  let carriers: CarrierRegistry | null = null;
  let statistics: StatisticsKeeper | null = null;
  usePreparedStatements(config.databasePreparedStatements);
  const media = createMediaServices(config);
  // Sends shorten links on the deployment's short domain (modules/links/autoShorten.ts), workers too.
  knowSharedDomain(config.links, config.publicUrl);
  // Carriers are handed signed URLs of this deployment's media at submit time (modules/media/carrierMediaUrls.ts).
  const unregisterCarrierMedia = registerCarrierMedia(media, (fileId) => mediaFileAccount(database.db, fileId));
  try {
    await migrateDatabase(database);
    await seedPlans(database.db);
    // created: 'template' (copied from the build's migrated template) or 'new' (initdb and every migration).
    const origin = database.kind === 'pglite' ? database.origin : null;
    const created = origin === 'template' || origin === 'new' ? { created: origin } : {};
    log.info({ database: database.kind, ...created, services: [...roles] }, 'database ready');
    if (database.kind === 'pglite') {
      // Single-user mode has no autovacuum to keep the planner's statistics and reclaim dead rows
      // (platform/db/statisticsKeeper.ts); VACUUM holds the one session, so it waits until nothing is being sent.
      const db = database.db;
      const keeper = new StatisticsKeeper(db, log.child({ component: 'statistics' }), undefined, () => sendingIdle(db));
      statistics = keeper;
      inBackground(() => {
        keeper.start();
      });
    }

    jobs = new JobQueue({
      database,
      log: log.child({ component: 'jobs' }),
      work: roles.has('worker'),
      schedule: roles.has('scheduler'),
      retryLimit: config.jobs.retryLimit,
      retryDelaySeconds: config.jobs.retryDelaySeconds,
      ...(options.jobsSchema === undefined ? {} : { schema: options.jobsSchema }),
      ...(options.jobPollingIntervalSeconds === undefined
        ? {}
        : { pollingIntervalSeconds: options.jobPollingIntervalSeconds }),
    });
    const inboundMedia = inboundMediaJob({ database, media, config });
    const definitions = options.jobs ? options.jobs(config, database) : [...jobDefinitions(config, database, jobs, media.storage), inboundMedia];
    // The job queue's polling and its handlers (campaign sending among them) are background work.
    const queue = jobs;
    await inBackground(() => queue.start(definitions));
    if (config.secrets.key === null && config.secrets.keyFile === null) {
      log.warn(
        "SECRETS_KEY is not set: carriers get no signed URLs of uploaded media, so MMS with uploads fail (docs/media.md), and the sign-in issuer's keys are stored unencrypted (docs/security.md)",
      );
    }

    const mailer = createMailer(config, database);
    if (mailer.kind === 'mailbox' && database.kind === 'postgres') {
      log.warn('SMTP_URL is not set: outgoing e-mail is only kept in the mailbox_messages table, not delivered');
    }
    const keys = config.identity.embedded ? await loadIssuerKeys(database, config.secrets) : null;
    const authenticator = chooseAuthenticator(config, keys, database, log.child({ component: 'identity' }));
    carriers = buildCarrierRegistry(config, database, log.child({ component: 'carriers' }));
    const carrierHandlers = createMessageHandlers({ database, log, afterInbound: inboundMediaScheduler(jobs, inboundMedia, config, log) });
    const payments = serverPaymentProvider(config, database, mailer, log);
    const ctx: AppContext = { config, log, database, jobs, authenticator, mailer, carriers, carrierHandlers, media, payments };
    let url: string | null = null;
    if (roles.has('web')) {
      const issuer = keys ? await createIssuer({ config, database, keys, log: log.child({ component: 'issuer' }) }) : null;
      app = await buildApp(ctx, { ...(options.webDist === undefined ? {} : { webDist: options.webDist }), issuer });
      await app.ready();
      io = createRealtimeServer({
        database,
        authenticator: ctx.authenticator,
        log: log.child({ component: 'realtime' }),
        httpServer: app.server,
      });
      fanout = new RealtimeFanout(io, database, log.child({ component: 'realtime' }));
      await fanout.listen();
      await app.listen({ port: config.port, host: config.host });
      const address = app.server.address() as AddressInfo;
      url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
      if (address.address === '0.0.0.0' || address.address === '::') url = `http://localhost:${address.port}`;
      inboundMail = await startEmailListener({ db: database.db, config, mailer }, log.child({ component: 'inboundMail' }));
    }
    if (roles.has('worker')) {
      // Websockets hear of events straight from the outbox's NOTIFY (modules/realtime/fanout.ts), not from here.
      webPush = startWebPush(database, config, log.child({ component: 'webpush' }));
      notificationDelivery = await startNotificationDelivery({
        database,
        config,
        mailer,
        carriers,
        log: log.child({ component: 'notifications' }),
        ...(options.dispatcherPollMs === undefined ? {} : { pollIntervalMs: options.dispatcherPollMs }),
      });
      const integrationActivities = new IntegrationActivitySubscriber(jobs, integrationActivityJob({ db: database.db, config, jobs, mailer }));
      const emailReplies = new EmailReplySubscriber(jobs, emailReplyJob({ db: database.db, config, jobs, mailer }));
      const calendarCancels = new CalendarCancelSubscriber(jobs, calendarCancelJob({ db: database.db, config, jobs, mailer }));
      const subscribers = [...(webPush === null ? [] : [webPush]), notificationDelivery.subscriber, notificationDelivery.channelSubscriber, integrationActivities, emailReplies, calendarCancels];
      dispatcher = new OutboxDispatcher(database, subscribers, log.child({ component: 'outbox' }), {
        expand: expandEventRows,
        ...(options.dispatcherPollMs === undefined ? {} : { pollIntervalMs: options.dispatcherPollMs }),
      });
      const outbox = dispatcher;
      await inBackground(() => outbox.start());
      // Receipts and replies flow in before anything is sent out.
      await carriers.start(carrierHandlers);
      const sender = new MessageDispatcher({ database, carriers, log: log.child({ component: 'dispatcher' }) });
      messageDispatcher = sender;
      await inBackground(() => sender.start());
    }

    let stopping: Promise<void> | null = null;
    const running: RunningServer = {
      config,
      database,
      jobs,
      mailer,
      carriers,
      authenticator,
      app,
      io,
      dispatcher,
      url,
      stop() {
        stopping ??= stopAll();
        return stopping;
      },
    };
    const jobsRef = jobs;
    const carriersRef = carriers;
    const webPushRef = webPush;
    async function stopAll(): Promise<void> {
      log.info('shutting down: finishing in-flight work');
      if (app && io) {
        // Websockets first: an open upgrade would keep the HTTP server from closing.
        // This process's sockets only: through the adapter a plain disconnectSockets reaches every web process.
        io.local.disconnectSockets(true);
        io.engine.close();
      }
      if (app) await closeHttp(app, config.shutdownTimeoutMs);
      await inboundMail?.close();
      await messageDispatcher?.stop();
      await dispatcher?.stop();
      await notificationDelivery?.stop();
      await webPushRef?.stop();
      await fanout?.stop();
      await carriersRef.stop();
      await jobsRef.stop(config.shutdownTimeoutMs);
      await statistics?.stop();
      if (io) await closeRealtimeServer(io, app !== null);
      await database.close();
      unregisterCarrierMedia();
      log.info('stopped');
    }
    return running;
  } catch (error) {
    await app?.close().catch(() => undefined);
    await inboundMail?.close().catch(() => undefined);
    await messageDispatcher?.stop().catch(() => undefined);
    await dispatcher?.stop().catch(() => undefined);
    await webPush?.stop().catch(() => undefined);
    await fanout?.stop().catch(() => undefined);
    await carriers?.stop().catch(() => undefined);
    await jobs?.stop(1000).catch(() => undefined);
    await statistics?.stop().catch(() => undefined);
    if (io) await closeRealtimeServer(io, app !== null).catch(() => undefined);
    await database.close().catch(() => undefined);
    unregisterCarrierMedia();
    throw error;
  }
}
