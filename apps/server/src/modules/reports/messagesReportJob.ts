import { and, eq } from 'drizzle-orm';
import { REPORT_LINK_TTL_DAYS } from '@parley/shared';
import { z } from 'zod';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { accounts } from '../../platform/db/schema/index.js';
import { createMailer, type Mailer } from '../../platform/mail/index.js';
import { pruneReportFiles, writeReportFile } from './files.js';
import { messagesCsv } from './messagesCsv.js';
import { messagesReportFailedMail, messagesReportReadyMail } from './reportMail.js';
import { createReportServices, type ReportServices } from './services.js';
import { defineJob } from '../../platform/jobs/queue.js';

export const MESSAGES_REPORT_RETRIES = 3;
const DAY_MS = 86_400_000;
export const REPORT_LINK_TTL_MS = REPORT_LINK_TTL_DAYS * DAY_MS;

export interface MessagesReportDeps {
  config: Config;
  database: Database;
  /** Made from the config on first use when not given (the worker builds jobs before the mailer exists). */
  mailer?: Mailer;
  reports?: ReportServices;
}

export const messagesReportData = z.object({ reportId: z.uuid(), accountId: z.uuid(), email: z.email() });
export type MessagesReportData = z.infer<typeof messagesReportData>;

/**
 * The detailed report (GET .../reports/messages?email=): writes every message of the account to
 * DATA_DIR/reports/<reportId>.csv page by page, then e-mails a signed link to it, valid REPORT_LINK_TTL_DAYS
 * days. A retry writes the file again from the start (the rename makes it whole or absent); after the last
 * attempt fails, the address is told so instead of waiting for nothing.
 */
export function messagesReportJob(deps: MessagesReportDeps) {
  const reports = deps.reports ?? createReportServices(deps.config);
  let mailer = deps.mailer ?? null;
  const mailerOf = (): Mailer => (mailer ??= createMailer(deps.config, deps.database));
  return defineJob({
    name: 'reports.messages',
    data: messagesReportData,
    retryLimit: MESSAGES_REPORT_RETRIES,
    retryDelaySeconds: 30,
    expireInSeconds: 60 * 60,
    async handler({ reportId, accountId, email }, ctx) {
      const [account] = await deps.database.db
        .select({ name: accounts.name })
        .from(accounts)
        .where(and(eq(accounts.id, accountId), eq(accounts.status, 'active')));
      if (account === undefined) {
        // Closed (or gone) since the request: its data is no longer handed out.
        ctx.log.info({ accountId, reportId }, 'messages report skipped: the account is not active');
        return;
      }
      try {
        const tally = { rows: 0 };
        const { bytes } = await writeReportFile(reports.dir, reportId, messagesCsv(deps.database.db, accountId, tally), ctx.signal);
        const expiresAt = new Date(Date.now() + REPORT_LINK_TTL_MS);
        const link = (await reports.signer()).link(reportId, expiresAt);
        await mailerOf().send({ to: email, ...messagesReportReadyMail({ accountName: account.name, link, expiresAt, messageCount: tally.rows }) });
        ctx.log.info({ accountId, reportId, rows: tally.rows, bytes }, 'messages report e-mailed');
      } catch (error) {
        if (ctx.retryCount >= MESSAGES_REPORT_RETRIES) {
          await mailerOf()
            .send({ to: email, ...messagesReportFailedMail({ accountName: account.name }) })
            .catch((mailError: unknown) => {
              ctx.log.warn({ err: mailError, reportId }, 'could not tell that the messages report failed');
            });
        }
        throw error;
      }
    },
  });
}

/**
 * Removes report files whose links have expired (and temporary files a dead process left). Hourly; an hour
 * of margin over the links' lifetime, since a link's expiry is counted from after its file was written.
 */
export function pruneReportsJob(config: Pick<Config, 'dataDir' | 'publicUrl' | 'secrets'>, reports: ReportServices = createReportServices(config)) {
  return defineJob({
    name: 'maintenance.prune-reports',
    data: z.object({}).loose(),
    schedule: { cron: '41 * * * *' },
    async handler(_data, ctx) {
      const removed = await pruneReportFiles(reports.dir, new Date(Date.now() - REPORT_LINK_TTL_MS - 60 * 60 * 1000));
      ctx.log.info({ removed }, 'pruned expired report files');
    },
  });
}
