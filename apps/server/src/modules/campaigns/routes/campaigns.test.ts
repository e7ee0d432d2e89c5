import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_CONTACTS_UNKNOWN_MESSAGE,
  CAMPAIGN_LISTS_UNKNOWN_MESSAGE,
  CAMPAIGN_RUNNING_MESSAGE,
  CAMPAIGN_SCHEDULE_PAST_MESSAGE,
  CAMPAIGN_SENDER_UNKNOWN_MESSAGE,
  CAMPAIGN_TEMPLATE_UNKNOWN_MESSAGE,
  MESSAGE_EMPTY_MESSAGE,
  nextExecution,
  type Campaign,
  type Pagination,
  type Role,
  type SaveCampaignInput,
} from '@parley/shared';
import { campaignJobs, contactGroups, contactLists, templates } from '../../../platform/db/schema/index.js';
import { campaignBody } from '../../../test/campaigns.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser } from '../../../test/factories.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addContact, addPhoneNumber } from '../../../test/sendingFixtures.js';

describe.each(testDatabaseKinds)('campaigns on %s', (kind) => {
  const { h, ownAccount } = useRouteHarness(kind);

  const url = (acc: string, id?: string) => `/v1/accounts/${acc}/campaigns${id === undefined ? '' : `/${id}`}`;
  const all = async (acc: string, token: string, query = '') =>
    (await h.call('GET', `${url(acc)}?limit=100${query}`, token)).json<{ data: Campaign[]; pagination: Pagination }>();
  const create = async (acc: string, token: string, body: SaveCampaignInput): Promise<Campaign> => {
    const res = await h.call('POST', url(acc), token, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: Campaign }>().data;
  };
  const errorOf = (res: Awaited<ReturnType<typeof h.call>>) => res.json<{ error: { code: string; message: string } }>().error;

  /** An account of its own with an administrator and an active number to send from. */
  async function sendingAccount() {
    const own = await ownAccount();
    const number = await addPhoneNumber(h.database.db, own.account.id);
    return { ...own, accountId: own.account.id, numberId: number.id };
  }

  it('adds, lists, reads, replaces and removes campaigns, keeping only what each trigger uses', async () => {
    const { accountId, token, admin, numberId } = await sendingAccount();
    const manual = await create(accountId, token, {
      ...campaignBody(numberId, { description: ' For regulars ', filters: { tags: ['vip'] } }),
      // A manual campaign keeps no schedule.
      schedule: { frequency: 'D', time: '09:00', timezone: 'Europe/London' },
      reporting: { when: 'afterFinish', delay: '2', unit: 'h', destination: ' Boss@Example.test ; ops@example.test;' },
    });
    expect(manual).toEqual({
      id: expect.any(String) as string,
      name: 'Spring sale',
      description: 'For regulars',
      messagingType: 'marketing',
      phoneNumberFilter: { group: numberId },
      trigger: { code: 'M' },
      schedule: null,
      filters: { tags: ['vip'], attributes: [], lists: [], contacts: [] },
      template: 'Hi {{{firstName}}}, 20% off this week.',
      templateId: null,
      media: [],
      reporting: { when: 'afterFinish', delay: 2, unit: 'h', destination: 'boss@example.test;ops@example.test' },
      fieldMappings: [],
      executions: 0,
      lastJob: null,
      lastExecution: null,
      nextExecution: null,
      created: { at: expect.any(String) as string },
      updated: { at: expect.any(String) as string },
      active: true,
    });
    expect(admin.id).toBeDefined();

    const before = new Date();
    const schedule = { frequency: 'D' as const, time: '09:30', timezone: 'America/New_York' };
    const scheduled = await create(accountId, token, campaignBody(numberId, { name: 'Daily', trigger: { code: 'S' }, schedule }));
    expect(scheduled.schedule).toEqual(schedule);
    const expected = nextExecution(schedule, before);
    expect(scheduled.nextExecution).toBe(expected?.toISOString());

    const upload = await create(accountId, token, {
      ...campaignBody(numberId, { name: 'Follow-up', trigger: { code: 'FU' }, template: 'Hi {{{firstName}}}, see you at {{{slot}}}' }),
      filters: { tags: ['ignored'] },
      fieldMappings: [
        { column: 'Phone', field: 'mobile' },
        { column: 'Name', field: 'firstName' },
        { column: 'Slot', field: 'slot' },
      ],
    });
    expect(upload).toMatchObject({ trigger: { code: 'FU' }, filters: { tags: [] }, schedule: null, fieldMappings: [{ column: 'Phone', field: 'mobile' }, { column: 'Name', field: 'firstName' }, { column: 'Slot', field: 'slot' }] });

    const listed = await all(accountId, token);
    expect(listed.pagination.totalCount).toBe(3);
    expect(listed.data.map((c) => c.id)).toEqual([upload.id, scheduled.id, manual.id]);
    expect((await h.call('GET', url(accountId, manual.id), token)).json()).toEqual({ data: manual });

    // PUT replaces the whole campaign: now scheduled, and inactive (so it has no next execution).
    const replaced = await h.call('PUT', url(accountId, manual.id), token, campaignBody(numberId, { name: 'Renamed', trigger: { code: 'S' }, schedule, active: false }));
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<{ data: Campaign }>().data).toMatchObject({
      id: manual.id,
      name: 'Renamed',
      description: '',
      filters: { tags: [] },
      reporting: null,
      trigger: { code: 'S' },
      active: false,
      nextExecution: null,
      created: manual.created,
    });
    // Inactive campaigns are listed only when asked for.
    expect((await all(accountId, token)).data.map((c) => c.id)).toEqual([upload.id, scheduled.id]);
    expect((await all(accountId, token, '&showInactive=true')).data.map((c) => c.id)).toEqual([manual.id, upload.id, scheduled.id]);

    const removed = await h.call('DELETE', url(accountId, manual.id), token);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true });
    expect((await h.call('GET', url(accountId, manual.id), token)).statusCode).toBe(404);
    expect((await h.call('DELETE', url(accountId, manual.id), token)).statusCode).toBe(404);
  });

  it("takes the hosted product's minimal campaign (name, trigger, template, reporting) with the account's defaults", async () => {
    const { accountId, token, numberId } = await sendingAccount();
    const minimal = { name: 'Marketing Campaign', trigger: { code: 'M' }, template: 'Hi {{{contact.firstName}}}', reporting: { when: 'NoReport' } };
    const created = await h.call('POST', url(accountId), token, minimal);
    expect(created.statusCode, created.body).toBe(201);
    const campaign = created.json<{ data: Campaign }>().data;
    expect(campaign).toMatchObject({
      name: 'Marketing Campaign',
      description: '',
      messagingType: 'marketing',
      phoneNumberFilter: null,
      trigger: { code: 'M' },
      schedule: null,
      filters: { tags: [], attributes: [], lists: [], contacts: [] },
      template: 'Hi {{{contact.firstName}}}',
      reporting: null,
      active: true,
    });
    expect((await h.call('GET', url(accountId, campaign.id), token)).json()).toEqual({ data: campaign });

    const replaced = await h.call('PUT', url(accountId, campaign.id), token, { ...minimal, name: 'Renamed', trigger: { code: 'FU' } });
    expect(replaced.statusCode).toBe(400);
    expect(errorOf(replaced).message).toBe('fieldMappings: Missing Mandatory Field: You must specify a field mapping for mobile');
    const renamed = await h.call('PUT', url(accountId, campaign.id), token, { ...minimal, name: 'Renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<{ data: Campaign }>().data).toMatchObject({ id: campaign.id, name: 'Renamed', phoneNumberFilter: null });

    // A sender given later is kept, and one left out again goes back to the account's routing.
    const routed = await h.call('PUT', url(accountId, campaign.id), token, { ...minimal, phoneNumberFilter: { group: numberId } });
    expect(routed.json<{ data: Campaign }>().data.phoneNumberFilter).toEqual({ group: numberId });
    const unrouted = await h.call('PUT', url(accountId, campaign.id), token, minimal);
    expect(unrouted.json<{ data: Campaign }>().data.phoneNumberFilter).toBeNull();
  });

  it('lets administrators and campaign managers write, and every role read', async () => {
    const tokens = {} as Record<Role, string>;
    const members: Record<string, Role> = {};
    for (const role of ['Administrator', 'CampaignManager', 'Sender', 'ReadOnly'] as const) {
      const user = await createUser(h.database.db);
      tokens[role] = h.tokenFor(user.id);
      members[user.id] = role;
    }
    const account = await createAccount(h.database.db, members);
    const number = await addPhoneNumber(h.database.db, account.id);
    const existing = await create(account.id, tokens.Administrator, campaignBody(number.id));
    const managed = await create(account.id, tokens.CampaignManager, campaignBody(number.id, { name: 'Managed' }));
    expect((await h.call('PUT', url(account.id, managed.id), tokens.CampaignManager, campaignBody(number.id, { name: 'Changed' }))).statusCode).toBe(200);
    for (const role of ['Sender', 'ReadOnly'] as const) {
      const token = tokens[role];
      expect((await all(account.id, token)).pagination.totalCount, role).toBe(2);
      expect((await h.call('GET', url(account.id, existing.id), token)).statusCode).toBe(200);
      const refused = [
        await h.call('POST', url(account.id), token, campaignBody(number.id)),
        await h.call('PUT', url(account.id, existing.id), token, campaignBody(number.id, { name: 'Nope' })),
        await h.call('DELETE', url(account.id, existing.id), token),
      ];
      expect(refused.map((r) => r.statusCode), role).toEqual([403, 403, 403]);
    }
    expect((await h.call('DELETE', url(account.id, managed.id), tokens.CampaignManager)).statusCode).toBe(200);
    expect((await all(account.id, tokens.Administrator)).data.map((c) => c.id)).toEqual([existing.id]);
  });

  it("answers 404 for another account's campaigns and refuses naming another account's records", async () => {
    const a = await sendingAccount();
    const b = await sendingAccount();
    const theirs = await create(b.accountId, b.token, campaignBody(b.numberId));
    const body = campaignBody(a.numberId);
    const attempts = [
      await h.call('GET', url(a.accountId, theirs.id), a.token),
      await h.call('PUT', url(a.accountId, theirs.id), a.token, body),
      await h.call('DELETE', url(a.accountId, theirs.id), a.token),
      await h.call('GET', `${url(a.accountId, theirs.id)}/jobs`, a.token),
      await h.call('GET', `${url(a.accountId, theirs.id)}/preview`, a.token),
      await h.call('POST', `${url(a.accountId, theirs.id)}/execute`, a.token),
      await h.call('GET', url(b.accountId, theirs.id), a.token),
      await h.call('GET', url(a.accountId, 'not-a-uuid'), a.token),
      await h.call('PUT', url(a.accountId, randomUUID()), a.token, body),
    ];
    expect(attempts.map((r) => r.statusCode), attempts[5]?.body).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404]);
    const [first] = attempts;
    if (!first) throw new Error('no attempt');
    expect(errorOf(first)).toEqual({ code: 'not_found', message: 'The campaign was not found.' });

    // B's group, number, template, list and contact are unknown to A.
    const group = uuidv7();
    await h.database.db.insert(contactGroups).values({ id: group, accountId: b.accountId, name: 'B group' });
    const template = uuidv7();
    await h.database.db.insert(templates).values({ id: template, accountId: b.accountId, name: 'B', type: 'SMS', template: 'Hi' });
    const list = uuidv7();
    await h.database.db.insert(contactLists).values({ id: list, accountId: b.accountId, name: 'B list' });
    const contact = await addContact(h.database.db, b.accountId);
    const cases: [SaveCampaignInput, string][] = [
      [campaignBody(b.numberId), `phoneNumberFilter.group: ${CAMPAIGN_SENDER_UNKNOWN_MESSAGE}`],
      [campaignBody(group), `phoneNumberFilter.group: ${CAMPAIGN_SENDER_UNKNOWN_MESSAGE}`],
      [campaignBody(a.numberId, { templateId: template }), `templateId: ${CAMPAIGN_TEMPLATE_UNKNOWN_MESSAGE}`],
      [campaignBody(a.numberId, { filters: { lists: [list] } }), `filters.lists: ${CAMPAIGN_LISTS_UNKNOWN_MESSAGE}`],
      [campaignBody(a.numberId, { filters: { contacts: [contact.id] } }), `filters.contacts: ${CAMPAIGN_CONTACTS_UNKNOWN_MESSAGE}`],
    ];
    for (const [given, message] of cases) {
      const res = await h.call('POST', url(a.accountId), a.token, given);
      expect(res.statusCode, message).toBe(400);
      expect(errorOf(res)).toEqual({ code: 'validation_failed', message });
    }
    expect((await all(a.accountId, a.token)).data).toEqual([]);
    expect((await all(b.accountId, b.token)).data).toEqual([theirs]);
  });

  it('refuses bad input with the form messages and changes nothing', async () => {
    const { accountId, token, numberId } = await sendingAccount();
    const kept = await create(accountId, token, campaignBody(numberId));
    const base = campaignBody(numberId);
    const reporting = { when: 'afterStart', delay: 1, unit: 'd', destination: 'a@example.test' };
    const cases: [object, string][] = [
      [{ ...base, name: '  ' }, 'name: Required'],
      // Left out they take defaults (the minimal campaign, below); what the wizard sends unchosen is refused.
      [{ ...base, messagingType: '' }, 'messagingType: Required'],
      [{ ...base, phoneNumberFilter: { group: '' } }, 'phoneNumberFilter.group: Required'],
      [{ ...base, reporting: { when: 'weekly' } }, 'reporting.when: Required'],
      [{ ...base, template: '  ' }, `template: ${MESSAGE_EMPTY_MESSAGE}`],
      [{ ...base, reporting: { ...reporting, delay: 'soon' } }, 'reporting.delay: Must be a number'],
      [{ ...base, reporting: { ...reporting, delay: '' } }, 'reporting.delay: Required'],
      [{ ...base, reporting: { ...reporting, destination: ' ; ' } }, 'reporting.destination: Required'],
      [{ ...base, reporting: { ...reporting, destination: 'a@example.test;nobody' } }, 'reporting.destination: Invalid email address'],
      [{ ...base, reporting: { ...reporting, unit: 'w' } }, 'reporting.unit: Required'],
      [{ ...base, trigger: { code: 'S' } }, 'schedule: Required'],
      [{ ...base, trigger: { code: 'S' }, schedule: { frequency: 'M', time: '09:00', timezone: 'Europe/Paris', dayOfMonth: 31 } }, 'schedule.dayOfMonth: The day of the month must be between 1 and 28.'],
      [{ ...base, trigger: { code: 'FU' } }, 'fieldMappings: Missing Mandatory Field: You must specify a field mapping for mobile'],
      [
        { ...base, trigger: { code: 'FU' }, fieldMappings: [{ column: 'Phone', field: 'mobile' }, { column: 'Phone', field: 'firstName' }] },
        'fieldMappings.1.column: The column Phone is mapped twice',
      ],
      [{ ...base, trigger: { code: 'FU' }, fieldMappings: [{ column: 'Phone', field: 'mobile' }, { column: 'X', field: '2x' }] }, 'fieldMappings.1.field: 2x is not a contact field'],
      [{ ...base, filters: { attributes: [{ attribute: '', comparator: 'equals', value: 'x' }] } }, 'filters.attributes.0.attribute: Required'],
      [{ ...base, filters: { attributes: [{ attribute: 'city', comparator: 'like', value: 'x' }] } }, 'filters.attributes.0.comparator: Required'],
      [{ ...base, trigger: { code: 'X' } }, 'trigger.code: Choose Manual, Scheduled or File Upload'],
    ];
    for (const [body, message] of cases) {
      for (const res of [await h.call('POST', url(accountId), token, body), await h.call('PUT', url(accountId, kept.id), token, body)]) {
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorOf(res).message, JSON.stringify(body)).toContain(message);
      }
    }
    // A once-only time already passed today has no execution ahead.
    const past = new Date(Date.now() - 2 * 60_000);
    const once = {
      frequency: 'O' as const,
      date: past.toISOString().slice(0, 10),
      time: past.toISOString().slice(11, 16),
      timezone: 'UTC',
    };
    if (once.date === new Date().toISOString().slice(0, 10)) {
      const res = await h.call('POST', url(accountId), token, campaignBody(numberId, { trigger: { code: 'S' }, schedule: once }));
      expect(errorOf(res)).toEqual({ code: 'validation_failed', message: `schedule: ${CAMPAIGN_SCHEDULE_PAST_MESSAGE}` });
    }
    expect((await all(accountId, token)).data).toEqual([kept]);
  });

  it('describes the campaign calls in the OpenAPI document', async () => {
    const res = await h.call('GET', '/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/accounts/{acc}/campaigns',
        '/v1/accounts/{acc}/campaigns/{id}',
        '/v1/accounts/{acc}/campaigns/{id}/jobs',
        '/v1/accounts/{acc}/campaigns/{id}/preview',
        '/v1/accounts/{acc}/campaigns/{id}/execute',
      ]),
    );
  });

  it('refuses to remove a campaign while an execution is sending', async () => {
    const { accountId, token, numberId } = await sendingAccount();
    const campaign = await create(accountId, token, campaignBody(numberId));
    const jobId = uuidv7();
    await h.database.db.insert(campaignJobs).values({ id: jobId, accountId, campaignId: campaign.id, status: 'running', phoneNumberFilter: { group: numberId } });
    const res = await h.call('DELETE', url(accountId, campaign.id), token);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toEqual({ code: 'conflict', message: CAMPAIGN_RUNNING_MESSAGE });
    expect((await h.call('GET', url(accountId, campaign.id), token)).statusCode).toBe(200);
  });
});
