import { z } from 'zod';
import type { Logger } from 'pino';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { defineJob } from '../../platform/jobs/queue.js';
import type { Mailer } from '../../platform/mail/index.js';
import { createPaymentProvider, type PaymentProviders } from './payments/factory.js';
import { settleBilling, settlementTrigger } from './settlement.js';

/**
 * Every minute: auto top-ups that debits scheduled are asked of the provider, and the sandbox's events that
 * no in-process trigger delivered (the process stopped) are delivered (docs/billing.md).
 */
export function billingJobs(config: Config, database: Database, mailer: Mailer) {
  const provider = createPaymentProvider(config, database.db);
  return [
    defineJob({
      name: 'billing.settle',
      data: z.object({}).loose(),
      schedule: { cron: '* * * * *' },
      expireInSeconds: 120,
      async handler(_data, ctx) {
        await settleBilling({ db: database.db, mailer, log: ctx.log }, provider);
      },
    }),
  ];
}

/** The server's provider: the sandbox delivers its events moments after each call, in this process. */
export function serverPaymentProvider(config: Config, database: Database, mailer: Mailer, log: Logger): PaymentProviders {
  let provider: PaymentProviders | null = null;
  const trigger = settlementTrigger(async () => {
    if (provider) await settleBilling({ db: database.db, mailer, log }, provider);
  }, log);
  provider = createPaymentProvider(config, database.db, trigger);
  return provider;
}
