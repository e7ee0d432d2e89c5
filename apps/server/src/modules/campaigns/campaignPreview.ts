import { sql } from 'drizzle-orm';
import { CAMPAIGN_FILE_PREVIEW_MESSAGE, type CampaignInvalidCounts } from '@parley/shared';
import { queryRows, type Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { audienceIds, countExclusions } from './campaignAudience.js';
import { estimateCampaign } from './campaignEstimate.js';
import { CAMPAIGN_NOT_FOUND, campaignMessage } from './campaignExecutor.js';
import { findCampaign } from './campaignManager.js';
import { shortenLinks } from '../links/index.js';
import { storedFilters } from './campaignStored.js';

export interface CampaignPreviewResult {
  contacts: number;
  /** 4 decimals. */
  estimatedPrice: string;
  invalidCounts: CampaignInvalidCounts;
  insufficientCredit: boolean;
}

/**
 * The Execute Now dialog: the audience as an execution now would resolve it, and its estimate by the same
 * pricing (campaignEstimate.ts), read in one transaction so the counts agree with each other. A File
 * Upload campaign has no audience before its file (400).
 */
export function previewCampaign(db: Db, accountId: string, campaignId: string): Promise<CampaignPreviewResult> {
  return db.transaction(async (tx) => {
    const campaign = await findCampaign(tx, accountId, campaignId);
    if (!campaign) throw new AppError(404, 'not_found', `${CAMPAIGN_NOT_FOUND} was not found.`);
    if (campaign.trigger === 'FU') throw new AppError(400, 'bad_request', CAMPAIGN_FILE_PREVIEW_MESSAGE);
    const filters = storedFilters(campaign.filters);
    const invalidCounts = await countExclusions(tx, accountId, filters);
    // Priced as the execution will send it: with its URLs shortened when the account asks for it.
    const { text } = await shortenLinks(tx, accountId, campaign.template, 'preview');
    const message = campaignMessage({ ...campaign, template: text });
    const estimate = await estimateCampaign(tx, accountId, audienceIds(accountId, filters), message);
    for (const refused of estimate.refused) invalidCounts[refused.reason] += 1;
    const [balance] = await queryRows<{ covered: boolean }>(
      tx,
      sql`select balance >= ${estimate.price}::numeric as covered from accounts where id = ${accountId}`,
    );
    return {
      contacts: estimate.recipients,
      estimatedPrice: estimate.price,
      invalidCounts,
      insufficientCredit: balance?.covered !== true,
    };
  });
}
