import { describe, expect, it } from 'vitest';
import { campaignScheduleValueSchema, executeCampaignBodySchema, saveCampaignSchema, type SaveCampaignInput } from './campaigns.js';

const body = (overrides: Partial<SaveCampaignInput> = {}): SaveCampaignInput => ({
  name: ' Spring ',
  messagingType: 'marketing',
  phoneNumberFilter: { group: '0190d6f4-9c3a-7000-8000-000000000001' },
  trigger: { code: 'M' },
  template: 'Hi {{{firstName}}}',
  ...overrides,
});

const messages = (input: unknown): string[] => {
  const parsed = saveCampaignSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('saveCampaignSchema', () => {
  it('fills the defaults and tidies what the form sends', () => {
    const parsed = saveCampaignSchema.parse(
      body({ reporting: { when: 'afterStart', delay: ' 15 ', unit: 'm', destination: 'A@Example.test; b@example.test ;;a@example.test' } }),
    );
    expect(parsed).toEqual({
      name: 'Spring',
      description: '',
      messagingType: 'marketing',
      phoneNumberFilter: { group: '0190d6f4-9c3a-7000-8000-000000000001' },
      trigger: { code: 'M' },
      schedule: null,
      filters: { tags: [], attributes: [], lists: [], contacts: [] },
      template: 'Hi {{{firstName}}}',
      templateId: null,
      media: [],
      reporting: { when: 'afterStart', delay: 15, unit: 'm', destination: 'a@example.test;b@example.test' },
      fieldMappings: [],
      active: true,
    });
  });

  it("takes the hosted product's minimal campaign: marketing, the account's own routing, no report", () => {
    const minimal = { name: 'Marketing Campaign', trigger: { code: 'M' }, template: 'Hi {{{contact.firstName}}}', reporting: { when: 'NoReport' } };
    expect(saveCampaignSchema.parse(minimal)).toMatchObject({
      messagingType: 'marketing',
      phoneNumberFilter: null,
      schedule: null,
      filters: { tags: [], attributes: [], lists: [], contacts: [] },
      reporting: null,
      active: true,
    });
    // 'NoReport' means none, whatever else comes with it.
    expect(saveCampaignSchema.parse({ ...minimal, reporting: { when: 'NoReport', delay: 'x' } }).reporting).toBeNull();
    expect(saveCampaignSchema.parse({ ...minimal, reporting: undefined, phoneNumberFilter: null }).phoneNumberFilter).toBeNull();
  });

  it('names the field and the rule it breaks in each message', () => {
    expect(messages({})).toEqual(expect.arrayContaining(['name: Required', 'trigger: Required']));
    // What the wizard sends unchosen is still refused: only a field left out takes the default.
    expect(messages(body({ messagingType: '' as 'marketing', phoneNumberFilter: { group: '' } }))).toEqual([
      'messagingType: Required',
      'phoneNumberFilter.group: Required',
    ]);
    expect(messages(body({ reporting: { when: 'never' } as unknown as SaveCampaignInput['reporting'] }))).toEqual(['reporting.when: Required']);
    const reporting = { when: 'afterStart' as const, unit: 'h' as const, destination: 'a@example.test' };
    expect(messages(body({ reporting: { ...reporting, delay: 'x' } }))).toEqual(['reporting.delay: Must be a number']);
    expect(messages(body({ reporting: { ...reporting, delay: 1.5 } }))).toEqual(['reporting.delay: Must be a number']);
    expect(messages(body({ reporting: { ...reporting, delay: 1000 } }))).toEqual(['reporting.delay: Maximum value is 999']);
    expect(messages(body({ reporting: { ...reporting, delay: 1, destination: 'a@example.test,b@example.test' } }))).toEqual([
      'reporting.destination: Invalid email address',
    ]);
    expect(messages(body({ template: '', media: [] }))).toEqual(['template: Enter a message or attach media']);
    expect(messages(body({ template: '', media: [{ url: 'https://example.test/a.png', type: 'image/png' }] }))).toEqual([]);
    expect(messages(body({ trigger: { code: 'S' } }))).toEqual(['schedule: Required']);
    expect(messages(body({ trigger: { code: 'FU' }, fieldMappings: [{ column: 'Name', field: 'firstName' }] }))).toEqual([
      'fieldMappings: Missing Mandatory Field: You must specify a field mapping for mobile',
    ]);
    expect(
      messages(
        body({
          trigger: { code: 'FU' },
          fieldMappings: [
            { column: 'Phone', field: 'mobile' },
            { column: 'Cell', field: 'mobile' },
            { column: 'A', field: 'slot' },
            { column: 'B', field: 'Slot' },
          ],
        }),
      ),
    ).toEqual(['fieldMappings.3.field: Only one column can be mapped to the attribute Slot']);
  });
});

describe('the answers', () => {
  it('read back a once-only schedule whose date has passed', () => {
    const schedule = { frequency: 'O', date: '2020-01-01', time: '09:00', timezone: 'UTC' };
    expect(campaignScheduleValueSchema.parse(schedule)).toEqual(schedule);
  });

  it('take the rows of a file, or nothing', () => {
    expect(executeCampaignBodySchema.parse(undefined)).toBeUndefined();
    expect(executeCampaignBodySchema.parse([{ Phone: '+14155550100', Visits: 3, Vip: true, Note: null }])).toHaveLength(1);
    expect(executeCampaignBodySchema.safeParse([]).error?.issues[0]?.message).toBe('The file has no rows');
    expect(executeCampaignBodySchema.safeParse({ Phone: '1' }).error?.issues[0]?.message).toBe('Send the rows as a JSON array of objects');
  });
});
