import { campaignInvalidReasons, emptyInvalidCounts, formatMoney, type CampaignExecution, type CampaignPreview } from '@parley/shared';
import type { ExecutionRecord } from './campaignExecutions.js';
import type { CampaignPreviewResult } from './campaignPreview.js';

export function presentExecution(record: ExecutionRecord): CampaignExecution {
  const invalidCounts = emptyInvalidCounts();
  for (const reason of campaignInvalidReasons) invalidCounts[reason] = record.invalidCounts[reason] ?? 0;
  return {
    id: record.id,
    campaign: record.campaignId === null ? null : { id: record.campaignId },
    status: record.status,
    created: { at: record.createdAt.toISOString() },
    finished: record.finishedAt === null ? null : { at: record.finishedAt.toISOString() },
    recipients: record.recipients,
    submitted: record.submitted,
    invalid: record.invalidListed,
    invalidCount: record.invalidCount,
    invalidCounts,
    failures: record.failures,
    incoming: record.incoming,
    price: formatMoney(record.price),
    error: record.errorDescription === null ? null : { description: record.errorDescription },
  };
}

export function presentPreview(result: CampaignPreviewResult): CampaignPreview {
  return {
    contacts: result.contacts,
    estimatedPrice: formatMoney(result.estimatedPrice),
    invalidCount: Object.values(result.invalidCounts).reduce((sum, n) => sum + n, 0),
    invalidCounts: result.invalidCounts,
    insufficientCredit: result.insufficientCredit,
  };
}
