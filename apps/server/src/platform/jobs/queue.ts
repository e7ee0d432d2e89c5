import { PgBoss, type Job } from 'pg-boss';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Database } from '../db/client.js';

export interface JobContext {
  jobId: string;
  /** 0 on the first attempt. */
  retryCount: number;
  log: Logger;
  signal: AbortSignal;
}

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  data: S;
  handler(data: z.infer<S>, ctx: JobContext): Promise<void>;
  /** Retries after the first failure; the delay doubles each time (backoff). Defaults from config. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  expireInSeconds?: number;
  /** A recurring job: created by the scheduler role on this cron, in this IANA zone (default UTC). */
  schedule?: { cron: string; tz?: string };
}

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

/** How often an idle worker looks for retries and jobs that were sent to start later (docs/decisions.md). */
export const JOB_POLLING_SECONDS = 10;

export interface JobQueueOptions {
  database: Database;
  log: Logger;
  /** Fetch and run jobs (the worker role). */
  work: boolean;
  /** Create the jobs of recurring schedules (the scheduler role). */
  schedule: boolean;
  retryLimit: number;
  retryDelaySeconds: number;
  /**
   * How often a worker looks for jobs that no NOTIFY announced: retries and jobs sent to start later. A job
   * sent to start now wakes the workers of its queue at once (LISTEN/NOTIFY), so this is a backstop only.
   */
  pollingIntervalSeconds?: number;
  /** Separate pg-boss schemas keep parallel test runs apart; one deployment uses one. */
  schema?: string;
}

/**
 * pg-boss on the embedded database's one session. pg-boss sends multi-statement blocks with their
 * own BEGIN and COMMIT; one that fails would leave the session inside its transaction, where a pool
 * of separate connections would have dropped it, so it is rolled back before the connection is given
 * back.
 */
interface SessionDatabase {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  listen(channel: string, onNotification: (payload: string) => void): Promise<{ close: () => Promise<void> }>;
}

function sessionDatabase(database: Database & { kind: 'pglite' }): SessionDatabase {
  const pool = database.pool;
  return {
    // The embedded session hears its own NOTIFYs: a job sent in this process wakes its queue's worker.
    async listen(channel, onNotification) {
      return { close: await database.listen(channel, onNotification) };
    },
    async executeSql(text, values) {
      const client = await pool.connect();
      try {
        // Several statements answer an array of results at run time.
        const result: unknown = await client.query(text, values);
        const results = (Array.isArray(result) ? result : [result]) as pg.QueryResult[];
        return { rows: results.flatMap((r) => r.rows as unknown[]) };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

/**
 * pg-boss on the product's database. Every role may send; only the worker role runs handlers and only
 * the scheduler role turns schedules into jobs. pg-boss claims each job for one worker across all
 * processes (SKIP LOCKED), and its timekeeper creates each scheduled job once.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private started = false;
  private readonly definitions = new Map<string, JobDefinition>();

  constructor(private readonly options: JobQueueOptions) {
    const { database } = options;
    const common = {
      schema: options.schema ?? 'pgboss',
      schedule: options.schedule,
      supervise: options.work || options.schedule,
      migrate: true,
      // A job sent to start now is announced (NOTIFY) and fetched at once; polling is the backstop.
      useListenNotify: options.work,
    };
    this.boss =
      database.kind === 'pglite'
        ? new PgBoss({ ...common, db: sessionDatabase(database), backend: 'pglite' })
        : new PgBoss({ ...common, connectionString: database.url, max: 4, application_name: 'parley-jobs' });
    this.boss.on('error', (error: unknown) => {
      options.log.error({ err: error }, 'job queue error');
    });
  }

  get isStarted(): boolean {
    return this.started;
  }

  async start(definitions: readonly JobDefinition[]): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const definition of definitions) await this.register(definition);
  }

  private async register(definition: JobDefinition): Promise<void> {
    this.definitions.set(definition.name, definition);
    const settings = {
      retryLimit: definition.retryLimit ?? this.options.retryLimit,
      retryDelay: definition.retryDelaySeconds ?? this.options.retryDelaySeconds,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: definition.expireInSeconds ?? 15 * 60,
      notify: true,
    };
    // A queue that exists keeps what it was created with: an older deployment's queues are brought to the
    // definition (and to NOTIFY on send).
    await this.boss.createQueue(definition.name, settings);
    await this.boss.updateQueue(definition.name, settings);
    if (this.options.work) {
      const polling = this.options.pollingIntervalSeconds ?? JOB_POLLING_SECONDS;
      await this.boss.work(
        definition.name,
        { batchSize: 1, pollingIntervalSeconds: polling, notifyPollingIntervalSeconds: polling },
        async (jobs: Job<unknown>[]) => {
          for (const job of jobs) await this.runJob(definition, job);
        },
      );
    }
    if (this.options.schedule && definition.schedule) {
      await this.boss.schedule(definition.name, definition.schedule.cron, {}, {
        tz: definition.schedule.tz ?? 'UTC',
      });
    }
  }

  private async runJob(definition: JobDefinition, job: Job<unknown>): Promise<void> {
    const log = this.options.log.child({ job: definition.name, jobId: job.id, attempt: job.retryCount + 1 });
    const parsed = definition.data.safeParse(job.data);
    if (!parsed.success) {
      // Bad data never gets better on retry; fail it with the reason.
      log.error({ issues: parsed.error.issues }, 'job data is invalid');
      throw new Error(`invalid job data: ${parsed.error.message}`);
    }
    const started = Date.now();
    try {
      await definition.handler(parsed.data, {
        jobId: job.id,
        retryCount: job.retryCount,
        log,
        signal: job.signal,
      });
      log.info({ ms: Date.now() - started }, 'job completed');
    } catch (error) {
      log.warn({ err: error, ms: Date.now() - started }, 'job failed');
      throw error;
    }
  }

  /** Enqueues a job; returns its id. */
  async send<S extends z.ZodType>(
    definition: JobDefinition<S>,
    data: z.infer<S>,
    options: { singletonKey?: string; startAfterSeconds?: number } = {},
  ): Promise<string | null> {
    const parsed = definition.data.parse(data) as object;
    return this.boss.send(definition.name, parsed, {
      ...(options.singletonKey === undefined ? {} : { singletonKey: options.singletonKey }),
      ...(options.startAfterSeconds === undefined ? {} : { startAfter: options.startAfterSeconds }),
    });
  }

  /** For readiness: the queue's tables answer. */
  async check(): Promise<void> {
    await this.boss.getQueues([]);
  }

  get pgBoss(): PgBoss {
    return this.boss;
  }

  /** Stops fetching, lets running handlers finish (up to timeoutMs), then closes. */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }
}
