import { describe, expect, it } from 'vitest';
import {
  draftChanged,
  draftErrors,
  draftOf,
  errorAt,
  firstStepWithErrors,
  newDraft,
  scheduleBody,
  stepErrors,
  stepsOf,
  toSaveBody,
  type CampaignDraft,
} from './wizardState';

const GROUP = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

const filled = (patch: Partial<CampaignDraft> = {}): CampaignDraft => ({
  ...newDraft('M'),
  name: 'Spring',
  messagingType: 'transactional',
  group: GROUP,
  template: 'Hi {{{firstName}}}',
  ...patch,
});

describe('campaign wizard state', () => {
  it('puts the errors of an empty draft on General and Design Template', () => {
    const errors = draftErrors(newDraft('M'));
    expect(stepErrors(errors, 'General')).toEqual({ name: 'Required', messagingType: 'Required', 'phoneNumberFilter.group': 'Required' });
    expect(Object.keys(stepErrors(errors, 'Design Template'))).toEqual(['template']);
    expect(firstStepWithErrors(errors, stepsOf('M'))).toBe('General');
  });

  it('accepts a complete Manual draft and sends no schedule or field mappings', () => {
    const draft = filled({ fieldMappings: [{ column: 'Phone', field: 'mobile' }] });
    expect(draftErrors(draft)).toEqual({});
    const body = toSaveBody(draft);
    expect(body.schedule).toBeNull();
    expect(body.fieldMappings).toEqual([]);
    expect(body.reporting).toBeNull();
  });

  it('checks reporting only when it is on: delay numeric, destinations e-mails', () => {
    expect(draftErrors(filled({ reporting: { when: 'afterStart', delay: 'x', unit: 'h', destination: '' } }))).toEqual({});
    const errors = draftErrors(filled({ reportingOn: true, reporting: { when: 'afterStart', delay: 'x', unit: 'h', destination: 'a@b.test;nope' } }));
    expect(stepErrors(errors, 'Reporting')).toEqual({ 'reporting.delay': 'Must be a number', 'reporting.destination': 'Invalid email address' });
    expect(errorAt(errors, 'reporting')).toBe('Must be a number');
  });

  it('sends only the fields a schedule frequency uses, and refuses a date before today', () => {
    const schedule = { ...newDraft('S').schedule, frequency: 'W' as const, days: [5, 1], timezone: 'Europe/London' };
    expect(scheduleBody(schedule)).toEqual({ frequency: 'W', time: '09:00', timezone: 'Europe/London', days: [1, 5] });
    const past = filled({ trigger: 'S', schedule: { ...schedule, frequency: 'O', date: '2001-01-01' } });
    expect(stepErrors(draftErrors(past), 'Schedule')).toEqual({ 'schedule.date': 'The date cannot be before today.' });
  });

  it('needs the mobile mapped for File Upload, and keeps no filters for it', () => {
    const draft = filled({ trigger: 'FU', filters: { tags: ['vip'], attributes: [], lists: [], contacts: [] } });
    expect(Object.keys(stepErrors(draftErrors(draft), 'Field Mapping'))).toEqual(['fieldMappings']);
    const mapped = { ...draft, fieldMappings: [{ column: 'Phone', field: 'mobile' }] };
    expect(draftErrors(mapped)).toEqual({});
    expect(toSaveBody(mapped).filters).toEqual({ tags: [], attributes: [], lists: [], contacts: [] });
  });

  it('reads a saved campaign back into the same body', () => {
    const draft = filled({ reportingOn: true, reporting: { when: 'afterFinish', delay: '2', unit: 'd', destination: 'ops@clinic.test' } });
    const body = toSaveBody(draft);
    const again = draftOf({
      id: GROUP,
      name: 'Spring',
      description: '',
      messagingType: 'transactional',
      phoneNumberFilter: { group: GROUP },
      trigger: { code: 'M' },
      schedule: null,
      filters: { tags: [], attributes: [], lists: [], contacts: [] },
      template: 'Hi {{{firstName}}}',
      templateId: null,
      media: [],
      reporting: { when: 'afterFinish', delay: 2, unit: 'd', destination: 'ops@clinic.test' },
      fieldMappings: [],
      executions: 0,
      lastJob: null,
      lastExecution: null,
      nextExecution: null,
      created: { at: '2026-01-01T00:00:00.000Z' },
      updated: { at: '2026-01-01T00:00:00.000Z' },
      active: true,
    });
    expect(toSaveBody(again)).toEqual(body);
  });

  it('asks for an outbound group when editing a campaign saved through the API without one', () => {
    const saved = toSaveBody(filled());
    const draft = draftOf({
      ...saved,
      id: GROUP,
      description: '',
      messagingType: 'marketing',
      phoneNumberFilter: null,
      trigger: { code: 'M' },
      schedule: null,
      filters: { tags: [], attributes: [], lists: [], contacts: [] },
      template: 'Hi {{{contact.firstName}}}',
      templateId: null,
      media: [],
      reporting: null,
      fieldMappings: [],
      executions: 0,
      lastJob: null,
      lastExecution: null,
      nextExecution: null,
      created: { at: '2026-01-01T00:00:00.000Z' },
      updated: { at: '2026-01-01T00:00:00.000Z' },
      active: true,
    });
    expect(draft.group).toBe('');
    expect(stepErrors(draftErrors(draft), 'General')).toEqual({ 'phoneNumberFilter.group': 'Required' });
  });

  it('tells a changed draft from an untouched one, whatever the order of its keys', () => {
    const initial = newDraft('M');
    expect(draftChanged(initial, { ...initial })).toBe(false);
    expect(draftChanged(initial, { ...initial, schedule: { ...initial.schedule } })).toBe(false);
    // The same values written in another order (a step that rebuilds an object) are no change.
    const { tags, attributes, lists, contacts } = initial.filters;
    expect(draftChanged(initial, { ...initial, filters: { contacts, lists, attributes, tags } })).toBe(false);
    expect(draftChanged(initial, { ...initial, name: 'S' })).toBe(true);
    expect(draftChanged(initial, { ...initial, filters: { ...initial.filters, tags: ['vip'] } })).toBe(true);
    expect(draftChanged(initial, { ...initial, schedule: { ...initial.schedule, days: [1, 2, 3, 4] } })).toBe(true);
    expect(draftChanged(initial, { ...initial, templateId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c' })).toBe(true);
  });
});
