import { z } from 'zod';
import { sendDueCampaignReports } from './campaignReporting.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { createMailer, type Mailer } from '../../platform/mail/index.js';
import { defineJob } from '../../platform/jobs/queue.js';

/**
 * Every minute: e-mails the campaign reports that are due (modules/campaigns/campaignReporting.ts). Each report is
 * locked while it is sent, so two ticks at once never send one twice.
 */
export function campaignReportingJob(deps: { config: Config; database: Database; mailer?: Mailer }) {
  let mailer = deps.mailer ?? null;
  const mailerOf = (): Mailer => (mailer ??= createMailer(deps.config, deps.database));
  return defineJob({
    name: 'campaigns.report',
    data: z.object({}).loose(),
    schedule: { cron: '* * * * *' },
    // A tick that fails is simply the next minute's work.
    retryLimit: 0,
    expireInSeconds: 10 * 60,
    async handler(_data, ctx) {
      const outcomes = await sendDueCampaignReports({
        db: deps.database.db,
        mailer: mailerOf(),
        publicUrl: deps.config.publicUrl,
        onMailError: (error, context) => {
          ctx.log.warn({ err: error, ...context }, 'could not e-mail a campaign report');
        },
      });
      if (outcomes.size > 0) ctx.log.info({ reports: Object.fromEntries(outcomes) }, 'campaign reports');
    },
  });
}
