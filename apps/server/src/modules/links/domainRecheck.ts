import { and, asc, gt, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import type { LinksConfig } from '../../platform/config.js';
import type { Database, Db } from '../../platform/db/client.js';
import { linkDomains } from '../../platform/db/schema/index.js';
import { defineJob } from '../../platform/jobs/queue.js';
import { pointsHere } from './dnsCheck.js';
import { recordCheck } from './domainManager.js';

/**
 * Checks every domain still verified again; one that still points here is kept a week more, one that no
 * longer does lapses at its renewAt (docs/links.md). Answers how many were checked and kept.
 */
export async function recheckDomains(db: Db, config: LinksConfig, now = new Date()): Promise<{ checked: number; kept: number }> {
  const due = await db
    .select()
    .from(linkDomains)
    .where(and(isNotNull(linkDomains.renewAt), gt(linkDomains.renewAt, now)))
    .orderBy(asc(linkDomains.renewAt));
  let kept = 0;
  for (const row of due) {
    const passed = await pointsHere(row.domain, config);
    try {
      await recordCheck(db, row, passed, now);
      if (passed) kept += 1;
    } catch {
      // Another account verified it meanwhile: this one lapses at its renewAt.
    }
  }
  return { checked: due.length, kept };
}

/** Daily, from the scheduler role. */
export function recheckDomainsJob(database: Database, config: LinksConfig) {
  return defineJob({
    name: 'links.recheck-domains',
    data: z.object({}).loose(),
    schedule: { cron: '41 3 * * *' },
    async handler(_data, ctx) {
      const result = await recheckDomains(database.db, config);
      ctx.log.info(result, 'custom domains re-checked');
    },
  });
}
