import type { Campaign, MessageMedia } from '@parley/shared';
import { storedFieldMappings, storedFilters, storedPhoneNumberFilter, storedReporting, storedSchedule } from './campaignStored.js';
import type { CampaignRow } from '../../platform/db/schema/index.js';

export function presentCampaign(row: CampaignRow): Campaign {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    messagingType: row.messagingType,
    phoneNumberFilter: storedPhoneNumberFilter(row.phoneNumberFilter),
    trigger: { code: row.trigger },
    schedule: row.trigger === 'S' ? storedSchedule(row.schedule) : null,
    filters: storedFilters(row.filters),
    template: row.template,
    templateId: row.templateId,
    media: row.media.map((m: MessageMedia) => ({ url: m.url, type: m.type, filename: m.filename })),
    reporting: storedReporting(row.reporting),
    fieldMappings: storedFieldMappings(row.fieldMappings),
    executions: row.executions,
    lastJob: row.lastJobId === null ? null : { id: row.lastJobId },
    lastExecution: row.lastExecutionAt?.toISOString() ?? null,
    nextExecution: row.nextExecutionAt?.toISOString() ?? null,
    created: { at: row.createdAt.toISOString() },
    updated: { at: row.updatedAt.toISOString() },
    active: row.active,
  };
}
