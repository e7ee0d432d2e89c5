import {
  campaignWizardSteps,
  saveCampaignSchema,
  type Campaign,
  type CampaignFieldMapping,
  type CampaignFilters,
  type CampaignMessagingType,
  type CampaignReportingUnit,
  type CampaignReportingWhen,
  type CampaignTriggerCode,
  type MessageMedia,
  type SaveCampaignInput,
} from '@parley/shared';

export type ScheduleFrequency = 'O' | 'D' | 'M' | 'W' | 'C';

/** The schedule as the form holds it: every frequency's fields at once, so switching keeps what was typed. */
export interface ScheduleDraft {
  frequency: ScheduleFrequency;
  date: string;
  time: string;
  days: number[];
  dayOfMonth: number;
  timezone: string;
  cron: string;
}

/** The whole wizard's state; `toSaveBody` turns it into what the API takes. */
export interface CampaignDraft {
  name: string;
  description: string;
  messagingType: CampaignMessagingType | '';
  group: string;
  trigger: CampaignTriggerCode;
  schedule: ScheduleDraft;
  filters: CampaignFilters;
  template: string;
  templateId: string | null;
  media: MessageMedia[];
  reportingOn: boolean;
  reporting: { when: CampaignReportingWhen; delay: string; unit: CampaignReportingUnit; destination: string };
  fieldMappings: CampaignFieldMapping[];
  /** FU: the columns of the sample file chosen on File Upload (not saved; the mappings name them). */
  sampleColumns: string[];
  active: boolean;
}

export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Today as 'YYYY-MM-DD' in the browser's zone (the date field's lower bound). */
export const todayLocal = (now: Date = new Date()): string => {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${String(now.getFullYear())}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};

const emptySchedule = (): ScheduleDraft => ({
  frequency: 'O',
  date: todayLocal(),
  time: '09:00',
  days: [1, 2, 3, 4, 5],
  dayOfMonth: 1,
  timezone: browserTimeZone(),
  cron: '0 9 * * 1-5',
});

export function newDraft(trigger: CampaignTriggerCode): CampaignDraft {
  return {
    name: '',
    description: '',
    messagingType: '',
    group: '',
    trigger,
    schedule: emptySchedule(),
    filters: { tags: [], attributes: [], lists: [], contacts: [] },
    template: '',
    templateId: null,
    media: [],
    reportingOn: false,
    reporting: { when: 'afterStart', delay: '', unit: 'h', destination: '' },
    fieldMappings: [],
    sampleColumns: [],
    active: true,
  };
}

export function draftOf(campaign: Campaign): CampaignDraft {
  const fresh = newDraft(campaign.trigger.code);
  const schedule = campaign.schedule;
  return {
    name: campaign.name,
    description: campaign.description,
    messagingType: campaign.messagingType,
    // A campaign saved through the API may have none (the account's own routing): the wizard asks for one.
    group: campaign.phoneNumberFilter?.group ?? '',
    trigger: campaign.trigger.code,
    schedule:
      schedule === null
        ? fresh.schedule
        : {
            frequency: schedule.frequency,
            date: schedule.date ?? fresh.schedule.date,
            time: schedule.time,
            days: schedule.days ?? fresh.schedule.days,
            dayOfMonth: schedule.dayOfMonth ?? fresh.schedule.dayOfMonth,
            timezone: schedule.timezone,
            cron: schedule.cron ?? fresh.schedule.cron,
          },
    filters: {
      tags: [...campaign.filters.tags],
      attributes: campaign.filters.attributes.map((a) => ({ ...a })),
      lists: [...campaign.filters.lists],
      contacts: [...campaign.filters.contacts],
    },
    template: campaign.template,
    templateId: campaign.templateId,
    media: campaign.media.map((m) => ({ ...m })),
    reportingOn: campaign.reporting !== null,
    reporting:
      campaign.reporting === null
        ? fresh.reporting
        : { ...campaign.reporting, delay: String(campaign.reporting.delay) },
    fieldMappings: campaign.fieldMappings.map((m) => ({ ...m })),
    sampleColumns: [],
    active: campaign.active,
  };
}

/** Only the fields the frequency uses go out (the schema ignores the others, the server keeps none). */
export function scheduleBody(schedule: ScheduleDraft): NonNullable<SaveCampaignInput['schedule']> {
  const { frequency, time, timezone } = schedule;
  switch (frequency) {
    case 'O':
      return { frequency, time, timezone, date: schedule.date };
    case 'D':
      return { frequency, time, timezone };
    case 'M':
      return { frequency, time, timezone, dayOfMonth: schedule.dayOfMonth };
    case 'W':
      return { frequency, time, timezone, days: [...schedule.days].sort((a, b) => a - b) };
    case 'C':
      return { frequency, time, timezone, cron: schedule.cron };
  }
}

export function toSaveBody(draft: CampaignDraft): SaveCampaignInput {
  return {
    name: draft.name,
    description: draft.description,
    // An empty choice fails the schema's enum with 'Required'.
    messagingType: draft.messagingType as CampaignMessagingType,
    phoneNumberFilter: { group: draft.group },
    trigger: { code: draft.trigger },
    schedule: draft.trigger === 'S' ? scheduleBody(draft.schedule) : null,
    filters: draft.trigger === 'FU' ? { tags: [], attributes: [], lists: [], contacts: [] } : draft.filters,
    template: draft.template,
    templateId: draft.templateId,
    media: draft.media,
    reporting: draft.reportingOn ? draft.reporting : null,
    fieldMappings: draft.trigger === 'FU' ? draft.fieldMappings : [],
    active: draft.active,
  };
}

/** Which step a field of the body is edited on. */
const stepOfField: Readonly<Record<string, string>> = {
  name: 'General',
  description: 'General',
  messagingType: 'General',
  phoneNumberFilter: 'General',
  trigger: 'General',
  active: 'General',
  schedule: 'Schedule',
  filters: 'Select Contacts',
  template: 'Design Template',
  templateId: 'Design Template',
  media: 'Design Template',
  reporting: 'Reporting',
  fieldMappings: 'Field Mapping',
};

/** The steps of a trigger's wizard; Save is on the last. */
export const stepsOf = (trigger: CampaignTriggerCode): readonly string[] => campaignWizardSteps[trigger];

/** A form error: where it shows ('phoneNumberFilter.group', 'reporting.delay' ...) and what it says. */
export type DraftErrors = Record<string, string>;

const issuesOf = (body: SaveCampaignInput): DraftErrors => {
  const result = saveCampaignSchema.safeParse(body);
  if (result.success) return {};
  const errors: DraftErrors = {};
  for (const issue of result.error.issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return errors;
};

/** Valid stand-ins for the fields whose own checks failed (see draftErrors). */
const standIns = (trigger: CampaignTriggerCode): Partial<SaveCampaignInput> => ({
  name: 'name',
  description: '',
  messagingType: 'transactional',
  phoneNumberFilter: { group: '00000000-0000-4000-8000-000000000000' },
  schedule: trigger === 'S' ? { frequency: 'D', time: '09:00', timezone: 'UTC' } : null,
  filters: { tags: [], attributes: [], lists: [], contacts: [] },
  templateId: null,
  reporting: null,
  active: true,
});

/**
 * Every problem of the draft, keyed by the dotted path of its field. zod runs the whole-campaign checks
 * (an empty message, the mobile mapping) only once every field passed its own, so the fields that failed
 * are checked again with valid stand-ins: each step shows its problems whatever the other steps hold.
 */
export function draftErrors(draft: CampaignDraft): DraftErrors {
  const body = toSaveBody(draft);
  const errors = issuesOf(body);
  const failed = new Set(Object.keys(errors).map((key) => key.split('.')[0] ?? ''));
  if (failed.size === 0) return errors;
  const fallback: Record<string, unknown> = standIns(draft.trigger);
  const patched: Record<string, unknown> = { ...body };
  for (const key of failed) if (key in fallback) patched[key] = fallback[key];
  for (const [key, message] of Object.entries(issuesOf(patched as SaveCampaignInput))) {
    if (!failed.has(key.split('.')[0] ?? '')) errors[key] ??= message;
  }
  return errors;
}

/** The errors shown on one step. */
export function stepErrors(errors: DraftErrors, step: string): DraftErrors {
  return Object.fromEntries(Object.entries(errors).filter(([key]) => stepOfField[key.split('.')[0] ?? ''] === step));
}

/** The first step of `steps` with an error, or null. */
export function firstStepWithErrors(errors: DraftErrors, steps: readonly string[]): string | null {
  return steps.find((step) => Object.keys(stepErrors(errors, step)).length > 0) ?? null;
}

/** The message of `path` or of anything under it ('filters' finds 'filters.attributes.0.attribute'). */
export const errorAt = (errors: DraftErrors, path: string): string | undefined =>
  errors[path] ?? Object.entries(errors).find(([key]) => key.startsWith(`${path}.`))?.[1];

const sameValue = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => key in right && sameValue(left[key], right[key]));
};

/** Whether the wizard holds something the user would lose by closing it: closing then asks first. */
export const draftChanged = (initial: CampaignDraft, current: CampaignDraft): boolean => !sameValue(initial, current);

export const DISCARD_CAMPAIGN_TITLE = 'Discard this campaign?';
export const DISCARD_CAMPAIGN_MESSAGE = 'What you entered in this campaign is not saved and will be lost.';
