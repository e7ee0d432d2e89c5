import { z } from 'zod';
import {
  campaignFieldMappingSchema,
  campaignFiltersSchema,
  campaignReportingUnits,
  campaignReportingWhens,
  campaignScheduleValueSchema,
  emptyCampaignFilters,
  type CampaignFieldMapping,
  type CampaignFilters,
  type CampaignReporting,
  type PhoneNumberFilter,
} from '@parley/shared';

/*
 * The campaign's jsonb columns read back in the contract's shapes. They were written from validated input,
 * so a value that does not read (a row edited by hand) reads as the empty value rather than failing a
 * request or a run.
 */

export function storedFilters(value: unknown): CampaignFilters {
  const parsed = campaignFiltersSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : emptyCampaignFilters();
}

const storedPhoneNumberFilterSchema = z.object({ group: z.uuid() });

/**
 * The group or number a campaign (or an execution) sends from; null for the account's own routing, which
 * a campaign saved without one keeps as `{}` (the column is never null).
 */
export function storedPhoneNumberFilter(value: unknown): PhoneNumberFilter | null {
  const parsed = storedPhoneNumberFilterSchema.safeParse(value);
  return parsed.success ? { group: parsed.data.group } : null;
}

export function storedFieldMappings(value: unknown): CampaignFieldMapping[] {
  const parsed = z.array(campaignFieldMappingSchema).safeParse(value ?? []);
  return parsed.success ? parsed.data : [];
}

export type StoredSchedule = z.infer<typeof campaignScheduleValueSchema>;

/** The schedule as stored, without judging a once-only date against today (it may have passed). */
export function storedSchedule(value: unknown): StoredSchedule | null {
  if (value === null || value === undefined) return null;
  const parsed = campaignScheduleValueSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const storedReportingSchema = z.object({
  when: z.enum(campaignReportingWhens),
  delay: z.number().int().min(0),
  unit: z.enum(campaignReportingUnits),
  destination: z.string(),
});

export function storedReporting(value: unknown): CampaignReporting | null {
  if (value === null || value === undefined) return null;
  const parsed = storedReportingSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
