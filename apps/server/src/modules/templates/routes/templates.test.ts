import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  MESSAGE_EMPTY_MESSAGE,
  TEMPLATE_WEBHOOK_GROUP_MESSAGE,
  TEMPLATE_WEBHOOK_OTHER_USER_MESSAGE,
  TEMPLATE_WEBHOOK_USER_MESSAGE,
  TEMPLATE_WEBHOOK_WEB_ONLY_MESSAGE,
  TEMPLATE_OPT_IN_LIST_ONLY_MESSAGE,
  TEMPLATE_OPT_IN_LIST_UNKNOWN_MESSAGE,
  NUL_CHARACTER_MESSAGE,
  TEMPLATE_TYPE_MESSAGE,
  type Pagination,
  type Role,
  type Template,
  type TemplateWebhookLinks,
} from '@parley/shared';
import type { Queryable } from '../../../platform/db/client.js';
import { accountAttributes, campaigns, contactGroups, contactLists, templates } from '../../../platform/db/schema/index.js';
import { testConfig } from '../../../test/config.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser } from '../../../test/factories.js';
import { createPhoneNumber } from '../../../test/phoneNumbers.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { changedSignature, textsDecodingAs } from '../../../test/signatures.js';
import { templateWebhookKeyIsValid } from '../webhookLink.js';

const media = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://media.example.test/${String(i)}.png`, type: 'image/png', filename: `${String(i)}.png` }));

async function insertList(q: Queryable, accountId: string, name = 'Newsletter'): Promise<string> {
  const id = randomUUID();
  await q.insert(contactLists).values({ id, accountId, name });
  return id;
}

describe.each(testDatabaseKinds)('templates on %s', (kind) => {
  const { h, ownAccount } = useRouteHarness(kind);

  const url = (acc: string, id?: string) => `/v1/accounts/${acc}/templates${id === undefined ? '' : `/${id}`}`;
  const list = async (acc: string, token: string, query = 'limit=0') => {
    const res = await h.call('GET', `${url(acc)}?${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Template[]; pagination: Pagination }>();
  };
  const names = async (acc: string, token: string, query?: string) => (await list(acc, token, query)).data.map((t) => t.name);
  const create = async (acc: string, token: string, body: object): Promise<Template> => {
    const res = await h.call('POST', url(acc), token, body);
    expect(res.statusCode, res.body).toBe(201);
    // The template made, in a list of one, as the hosted product's API answers.
    const answer = res.json<{ success: boolean; data: Template[] }>();
    expect(answer.success).toBe(true);
    expect(answer.data).toHaveLength(1);
    const [template] = answer.data;
    if (!template) throw new Error('no template in the answer');
    return template;
  };
  const errorOf = (res: Awaited<ReturnType<typeof h.call>>) => res.json<{ error: { code: string; message: string } }>().error;

  /** An account with one user per role (and a second Campaign Manager), and a token for each. */
  async function teamAccount() {
    const tokens = {} as Record<Role | 'OtherManager', string>;
    const ids = {} as Record<Role | 'OtherManager', string>;
    const members: Record<string, Role> = {};
    for (const [name, role] of [
      ['Administrator', 'Administrator'],
      ['CampaignManager', 'CampaignManager'],
      ['OtherManager', 'CampaignManager'],
      ['Sender', 'Sender'],
      ['ReadOnly', 'ReadOnly'],
    ] as const) {
      const user = await createUser(h.database.db);
      tokens[name] = h.tokenFor(user.id);
      ids[name] = user.id;
      members[user.id] = role;
    }
    const account = await createAccount(h.database.db, members);
    return { account, tokens, ids };
  }

  it('adds, lists by name, reads, replaces and removes templates', async () => {
    const { account, admin, token } = await ownAccount();
    const listId = await insertList(h.database.db, account.id, 'Clinic news');
    await h.database.db.insert(accountAttributes).values({ accountId: account.id, name: 'plan' });
    const welcome = await create(account.id, token, {
      name: '  Welcome ',
      type: 'SMS',
      template: 'Hi {{{firstName}}}, your plan is {{{ plan }}}.',
      media: media(1),
    });
    expect(welcome).toEqual({
      id: expect.any(String) as string,
      name: 'Welcome',
      type: 'SMS',
      template: 'Hi {{{firstName}}}, your plan is {{{ plan }}}.',
      media: media(1),
      private: false,
      created: { at: expect.any(String) as string },
      updated: { at: expect.any(String) as string },
    });
    // An SMS template has no list: left out, not null.
    expect(welcome).not.toHaveProperty('optInList');
    const [stored] = await h.database.db.select().from(templates).where(eq(templates.id, welcome.id));
    expect(stored?.createdByUserId).toBe(admin.id);
    const join = await create(account.id, token, { name: 'join', type: 'OptIn', template: 'You joined, {{{firstName}}}', optInListId: listId });
    expect(join.optInList).toEqual({ id: listId, name: 'Clinic news' });
    const picture = await create(account.id, token, { name: 'Picture only', type: 'Web', media: media(5) });
    expect(picture.template).toBe('');

    // By name, ignoring case.
    expect(await list(account.id, token)).toEqual({ data: [join, picture, welcome], pagination: { totalCount: 3, offset: 0, limit: 0 } });
    expect((await h.call('GET', url(account.id, join.id), token)).json()).toEqual({ data: join });

    const replaced = await h.call('PUT', url(account.id, welcome.id), token, { name: 'Welcome back', type: 'SMS', template: 'Hello again', private: true });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({
      data: { id: welcome.id, name: 'Welcome back', template: 'Hello again', media: [], private: true, created: welcome.created },
    });
    // OptIn → SMS: the list goes with the type.
    const changedType = await h.call('PUT', url(account.id, join.id), token, { name: 'join', type: 'SMS', template: 'Plain now' });
    expect(changedType.json()).toMatchObject({ data: { type: 'SMS' } });
    expect(changedType.json()).not.toHaveProperty('data.optInList');

    const removed = await h.call('DELETE', url(account.id, picture.id), token);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true });
    expect((await h.call('GET', url(account.id, picture.id), token)).statusCode).toBe(404);
    expect((await h.call('DELETE', url(account.id, picture.id), token)).statusCode).toBe(404);
    expect(await names(account.id, token)).toEqual(['join', 'Welcome back']);
  });

  it('filters by type and name, pages with limit (0 for all) and trims to the fields asked for', async () => {
    const { account, token } = await ownAccount();
    const listId = await insertList(h.database.db, account.id);
    for (const name of ['Reminder 1', 'Reminder 2', 'Reminder 3', 'Reminder 4', 'Reminder 5', 'Reminder 6', 'Price_list', 'Pricey']) {
      await create(account.id, token, { name, type: 'SMS', template: `${name} text` });
    }
    await create(account.id, token, { name: 'Reminder hook', type: 'Web', template: 'From the hook' });
    await create(account.id, token, { name: 'Join us', type: 'OptIn', template: 'Welcome', optInListId: listId });

    expect(await names(account.id, token, 'type=optin')).toEqual(['Join us']);
    expect(await names(account.id, token, 'type=Web&limit=0')).toEqual(['Reminder hook']);
    expect((await list(account.id, token, 'type=SMS')).pagination).toEqual({ totalCount: 8, offset: 0, limit: 10 });
    // limit 5 (the chooser's search) and limit 0 (all).
    const five = await list(account.id, token, 'type=SMS&name=reminder&limit=5');
    expect(five.data.map((t) => t.name)).toEqual(['Reminder 1', 'Reminder 2', 'Reminder 3', 'Reminder 4', 'Reminder 5']);
    expect(five.pagination).toEqual({ totalCount: 6, offset: 0, limit: 5 });
    expect(await names(account.id, token, 'type=SMS&name=REMINDER&limit=5&offset=5')).toEqual(['Reminder 6']);
    expect(await names(account.id, token, 'name=reminder&limit=0')).toHaveLength(7);
    // '_' and '%' are searched as themselves.
    expect(await names(account.id, token, 'name=e_')).toEqual(['Price_list']);
    expect(await names(account.id, token, 'name=%25')).toEqual([]);
    // Empty values are ignored.
    expect(await names(account.id, token, 'type=&name=&limit=0')).toHaveLength(10);

    const trimmed = await list(account.id, token, 'type=SMS&name=pricey&fields=name,template');
    expect(trimmed.data).toEqual([{ id: expect.any(String) as string, name: 'Pricey', template: 'Pricey text' }]);
    const repeated = await list(account.id, token, 'name=join&fields=optInList&fields=id');
    expect(repeated.data).toEqual([{ id: expect.any(String) as string, optInList: { id: listId, name: 'Newsletter' } }]);

    for (const [query, message] of [
      ['type=email', `type: ${TEMPLATE_TYPE_MESSAGE}`],
      ['limit=101', 'limit: Maximum value is 100'],
      ['limit=-1', 'limit: Minimum value is 0'],
      ['limit=five', 'limit: Must be a number'],
      ['fields=name,secret', 'fields: Unknown field secret'],
    ] as const) {
      const res = await h.call('GET', `${url(account.id)}?${query}`, token);
      expect(res.statusCode, query).toBe(400);
      expect(errorOf(res).message, query).toContain(message);
    }
  });

  it('lets administrators and campaign managers write, and every role read (Sender and Read Only get 403 on writes)', async () => {
    const { account, tokens } = await teamAccount();
    const existing = await create(account.id, tokens.Administrator, { name: 'Hours', type: 'SMS', template: '9 to 5' });
    const managed = await create(account.id, tokens.CampaignManager, { name: 'Menu', type: 'SMS', template: 'Soup' });
    const edit = await h.call('PUT', url(account.id, existing.id), tokens.CampaignManager, { name: 'Hours', type: 'SMS', template: '9 to 6' });
    expect(edit.statusCode).toBe(200);
    for (const role of ['Sender', 'ReadOnly'] as const) {
      const token = tokens[role];
      expect((await list(account.id, token)).pagination.totalCount).toBe(2);
      expect((await h.call('GET', url(account.id, existing.id), token)).statusCode).toBe(200);
      const refused = [
        await h.call('POST', url(account.id), token, { name: 'New', type: 'SMS', template: 'New' }),
        await h.call('PUT', url(account.id, existing.id), token, { name: 'Changed', type: 'SMS', template: 'Changed' }),
        await h.call('DELETE', url(account.id, existing.id), token),
      ];
      expect(refused.map((r) => r.statusCode), role).toEqual([403, 403, 403]);
      expect(errorOf(refused[0] ?? edit).code).toBe('forbidden');
    }
    expect((await list(account.id, tokens.Administrator)).data).toEqual([
      expect.objectContaining({ id: existing.id, template: '9 to 6' }),
      managed,
    ]);
    expect((await h.call('DELETE', url(account.id, managed.id), tokens.CampaignManager)).statusCode).toBe(200);
  });

  it('shows a private template only to its maker, administrators and API clients; to others it is not there', async () => {
    const { account, tokens } = await teamAccount();
    const mine = await create(account.id, tokens.CampaignManager, { name: 'My draft', type: 'SMS', template: 'Secret', private: true });
    const shared = await create(account.id, tokens.CampaignManager, { name: 'Shared', type: 'SMS', template: 'For all' });
    const clientId = `pk_${randomUUID()}`;
    const apiClient = h.authenticator.add({ userId: clientId, clientId, accountIds: [account.id] });

    for (const token of [tokens.CampaignManager, tokens.Administrator, apiClient]) {
      expect(await names(account.id, token)).toEqual(['My draft', 'Shared']);
      expect((await h.call('GET', url(account.id, mine.id), token)).statusCode).toBe(200);
    }
    for (const token of [tokens.OtherManager, tokens.Sender, tokens.ReadOnly]) {
      expect(await list(account.id, token)).toEqual({ data: [shared], pagination: { totalCount: 1, offset: 0, limit: 0 } });
      expect(await names(account.id, token, 'name=draft')).toEqual([]);
      const read = await h.call('GET', url(account.id, mine.id), token);
      expect(read.statusCode).toBe(404);
      expect(errorOf(read)).toEqual({ code: 'not_found', message: 'The template was not found.' });
    }
    // A Campaign Manager may write templates, but not one hidden from them: 404, and it stays as it was.
    const attempts = [
      await h.call('PUT', url(account.id, mine.id), tokens.OtherManager, { name: 'Taken', type: 'SMS', template: 'Mine now' }),
      await h.call('DELETE', url(account.id, mine.id), tokens.OtherManager),
    ];
    expect(attempts.map((r) => r.statusCode)).toEqual([404, 404]);
    expect((await h.call('GET', url(account.id, mine.id), tokens.CampaignManager)).json()).toEqual({ data: mine });

    // An administrator edits it and it stays private; made public, everyone sees it.
    const edited = await h.call('PUT', url(account.id, mine.id), tokens.Administrator, { name: 'My draft', type: 'SMS', template: 'Edited', private: true });
    expect(edited.json()).toMatchObject({ data: { private: true, template: 'Edited' } });
    expect(await names(account.id, tokens.Sender)).toEqual(['Shared']);
    await h.call('PUT', url(account.id, mine.id), tokens.CampaignManager, { name: 'My draft', type: 'SMS', template: 'Edited' });
    expect(await names(account.id, tokens.Sender)).toEqual(['My draft', 'Shared']);

    // A private template made by an API client has no maker: administrators and API clients see it.
    const byClient = await create(account.id, apiClient, { name: 'Integration', type: 'Web', template: 'From the API', private: true });
    const [stored] = await h.database.db.select().from(templates).where(eq(templates.id, byClient.id));
    expect(stored?.createdByUserId).toBeNull();
    expect(await names(account.id, tokens.Administrator, 'type=web')).toEqual(['Integration']);
    expect(await names(account.id, tokens.CampaignManager, 'type=web')).toEqual([]);
  });

  it("answers 404 for another account's templates and leaves them as they were", async () => {
    const a = await ownAccount();
    const b = await ownAccount();
    const theirs = await create(b.account.id, b.token, { name: 'Theirs', type: 'SMS', template: 'B only' });
    const body = { name: 'Taken', type: 'SMS', template: 'By A' };
    const attempts = [
      await h.call('GET', url(a.account.id, theirs.id), a.token),
      await h.call('PUT', url(a.account.id, theirs.id), a.token, body),
      await h.call('DELETE', url(a.account.id, theirs.id), a.token),
      await h.call('GET', url(b.account.id, theirs.id), a.token),
      await h.call('GET', url(b.account.id), a.token),
      await h.call('POST', url(b.account.id), a.token, body),
      await h.call('GET', url(a.account.id, 'not-a-uuid'), a.token),
      await h.call('PUT', url(a.account.id, randomUUID()), a.token, body),
      await h.call('DELETE', url(a.account.id, 'not-a-uuid'), a.token),
    ];
    expect(attempts.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404]);
    expect(attempts[0]?.json()).toEqual({ error: { code: 'not_found', message: 'The template was not found.' } });
    expect(await list(a.account.id, a.token)).toEqual({ data: [], pagination: { totalCount: 0, offset: 0, limit: 0 } });
    expect((await list(b.account.id, b.token)).data).toEqual([theirs]);

    // Another account's list cannot be an OptIn template's list: it reads as unknown.
    const theirList = await insertList(h.database.db, b.account.id);
    const res = await h.call('POST', url(a.account.id), a.token, { name: 'Join', type: 'OptIn', template: 'Hi', optInListId: theirList });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ code: 'validation_failed', message: `optInListId: ${TEMPLATE_OPT_IN_LIST_UNKNOWN_MESSAGE}` });
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const { account, token } = await ownAccount();
    const listId = await insertList(h.database.db, account.id);
    await h.database.db.insert(accountAttributes).values({ accountId: account.id, name: 'plan' });
    const kept = await create(account.id, token, { name: 'Kept', type: 'SMS', template: 'Hi {{{plan}}}' });
    const cases: [object, string][] = [
      [{ type: 'SMS', template: 'Hi' }, 'name: Required'],
      [{ name: '   ', type: 'SMS', template: 'Hi' }, 'name: Required'],
      [{ name: 'x'.repeat(101), type: 'SMS', template: 'Hi' }, 'name: At most 100 characters'],
      [{ name: 'Hi', template: 'Hi' }, `type: ${TEMPLATE_TYPE_MESSAGE}`],
      [{ name: 'Hi', type: 'Email', template: 'Hi' }, `type: ${TEMPLATE_TYPE_MESSAGE}`],
      [{ name: 'Hi', type: 'SMS' }, `template: ${MESSAGE_EMPTY_MESSAGE}`],
      [{ name: 'Hi', type: 'SMS', template: ' \n ' }, `template: ${MESSAGE_EMPTY_MESSAGE}`],
      [{ name: 'Hi', type: 'SMS', template: 'x'.repeat(1601) }, 'template: At most 1600 characters'],
      [{ name: 'Hi', type: 'SMS', template: 'a\u0000b' }, `template: ${NUL_CHARACTER_MESSAGE}`],
      [{ name: 'Hi', type: 'SMS', template: 'Hi', media: media(6) }, 'media: At most 5 attachments'],
      [{ name: 'Hi', type: 'SMS', template: 'Hi', media: [{ url: 'ftp://x', type: 'image/png' }] }, 'media.0.url: Valid URL with http or https prefix required'],
      [{ name: 'Hi', type: 'SMS', template: 'Hi', private: 'yes' }, 'private: Use true or false'],
      [{ name: 'Hi', type: 'OptIn', template: 'Joined' }, 'optInListId: Required'],
      [{ name: 'Hi', type: 'OptIn', template: 'Joined', optInListId: 'list' }, `optInListId: ${TEMPLATE_OPT_IN_LIST_UNKNOWN_MESSAGE}`],
      [{ name: 'Hi', type: 'OptIn', template: 'Joined', optInListId: randomUUID() }, `optInListId: ${TEMPLATE_OPT_IN_LIST_UNKNOWN_MESSAGE}`],
      [{ name: 'Hi', type: 'SMS', template: 'Hi', optInListId: listId }, `optInListId: ${TEMPLATE_OPT_IN_LIST_ONLY_MESSAGE}`],
      [
        { name: 'Hi', type: 'SMS', template: 'Hi {{{first_name}}}' },
        "template: Unknown token {{{first_name}}}: use firstName, lastName, mobile, email or an attribute of the account's contacts",
      ],
      [
        { name: 'Hi', type: 'Web', template: '{{{FirstName}}} {{{tier}}} {{{tier}}} {{{plan}}}' },
        "template: Unknown tokens {{{FirstName}}}, {{{tier}}}: use firstName, lastName, mobile, email or an attribute of the account's contacts",
      ],
    ];
    for (const [body, message] of cases) {
      for (const res of [await h.call('POST', url(account.id), token, body), await h.call('PUT', url(account.id, kept.id), token, body)]) {
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorOf(res).message, JSON.stringify(body)).toContain(message);
      }
    }
    expect(await list(account.id, token)).toEqual({ data: [kept], pagination: { totalCount: 1, offset: 0, limit: 0 } });
    // Literal braces are text, not tokens; an attribute added later makes its token valid.
    await create(account.id, token, { name: 'Braces', type: 'SMS', template: '{{firstName}} {{{ first name }}}' });
    await h.database.db.insert(accountAttributes).values({ accountId: account.id, name: 'tier' });
    await create(account.id, token, { name: 'Tier', type: 'SMS', template: 'Your tier: {{{tier}}}' });
  });

  it("gives a Web template's web-hook links, signed for the member and the group or number that sends", async () => {
    const { account, tokens, ids } = await teamAccount();
    const { Administrator: admin, CampaignManager: manager, Sender: sender, ReadOnly: readOnly } = ids;
    const hook = await create(account.id, tokens.CampaignManager, { name: 'Shipped', type: 'Web', template: 'Your order has shipped' });
    const sms = await create(account.id, tokens.CampaignManager, { name: 'Plain', type: 'SMS', template: 'Hi' });
    const groupId = randomUUID();
    await h.database.db.insert(contactGroups).values({ id: groupId, accountId: account.id, name: 'Front desk' });
    const number = await createPhoneNumber(h.database.db, account.id);
    const linksUrl = (id: string, query = '') => `${url(account.id, id)}/webhooks${query}`;
    const links = async (token: string, query = '') => {
      const res = await h.call('GET', linksUrl(hook.id, query), token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: TemplateWebhookLinks }>().data;
    };
    const secrets = testConfig().secrets;
    const keyOf = (link: string) => new URL(link).searchParams.get('key') ?? '';

    // The caller by default, no group.
    const own = await links(tokens.CampaignManager);
    expect(own.available).toBe(true);
    expect(own.links.map((l) => l.integration)).toEqual(['hubspot', 'activecampaign']);
    for (const { integration, link } of own.links) {
      const parsed = new URL(link);
      expect(parsed.pathname).toBe(`/${integration}/v1/webhook/${hook.id}`);
      expect(Object.fromEntries(parsed.searchParams)).toEqual({ user: manager, group: '', key: expect.any(String) as string });
      expect(await templateWebhookKeyIsValid(secrets, { templateId: hook.id, userId: manager, groupId: null }, keyOf(link))).toBe(true);
    }
    // A group, or a number, that sends; an administrator may sign for another member who may send.
    const forSender = await links(tokens.Administrator, `?user=${sender}&group=${groupId}`);
    const [first] = forSender.links;
    expect(Object.fromEntries(new URL(first?.link ?? '').searchParams)).toMatchObject({ user: sender, group: groupId });
    expect(await templateWebhookKeyIsValid(secrets, { templateId: hook.id, userId: sender, groupId }, keyOf(first?.link ?? ''))).toBe(true);
    // Only the key's own text: texts that decode to its bytes, or another key, are refused.
    for (const other of [...textsDecodingAs(keyOf(first?.link ?? '')), changedSignature(keyOf(first?.link ?? ''))]) {
      expect(await templateWebhookKeyIsValid(secrets, { templateId: hook.id, userId: sender, groupId }, other), other).toBe(false);
    }
    expect((await links(tokens.Administrator, `?group=${number.id}`)).links[0]?.link).toContain(`user=${admin}&group=${number.id}`);

    const refused: [string, string, number, string][] = [
      [tokens.CampaignManager, `?user=${admin}`, 400, `user: ${TEMPLATE_WEBHOOK_OTHER_USER_MESSAGE}`],
      [tokens.Administrator, `?user=${readOnly}`, 400, `user: ${TEMPLATE_WEBHOOK_USER_MESSAGE}`],
      [tokens.Administrator, `?user=${randomUUID()}`, 400, `user: ${TEMPLATE_WEBHOOK_USER_MESSAGE}`],
      [tokens.Administrator, `?group=${randomUUID()}`, 400, `group: ${TEMPLATE_WEBHOOK_GROUP_MESSAGE}`],
      [tokens.Administrator, '?group=front', 400, `group: ${TEMPLATE_WEBHOOK_GROUP_MESSAGE}`],
    ];
    for (const [token, query, status, message] of refused) {
      const res = await h.call('GET', linksUrl(hook.id, query), token);
      expect(res.statusCode, query).toBe(status);
      expect(errorOf(res).message, query).toBe(message);
    }
    const notWeb = await h.call('GET', linksUrl(sms.id), tokens.Administrator);
    expect(notWeb.statusCode).toBe(400);
    expect(errorOf(notWeb).message).toBe(TEMPLATE_WEBHOOK_WEB_ONLY_MESSAGE);
    // Handing out links is managing templates; another account's template is not there.
    for (const token of [tokens.Sender, tokens.ReadOnly]) expect((await h.call('GET', linksUrl(hook.id), token)).statusCode).toBe(403);
    const other = await ownAccount();
    expect((await h.call('GET', `${url(other.account.id, hook.id)}/webhooks`, other.token)).statusCode).toBe(404);
    // An API client names the member; without one it is told to.
    const clientId = `pk_${randomUUID()}`;
    const apiClient = h.authenticator.add({ userId: clientId, clientId, accountIds: [account.id] });
    expect(errorOf(await h.call('GET', linksUrl(hook.id), apiClient)).message).toBe(`user: ${TEMPLATE_WEBHOOK_USER_MESSAGE}`);
    expect((await links(apiClient, `?user=${sender}`)).available).toBe(true);
  });

  it('keeps the campaigns that used a removed template, without the link', async () => {
    const { account, token } = await ownAccount();
    const used = await create(account.id, token, { name: 'Used', type: 'SMS', template: 'Sale today' });
    const campaignId = randomUUID();
    await h.database.db.insert(campaigns).values({
      id: campaignId,
      accountId: account.id,
      name: 'Sale',
      messagingType: 'marketing',
      trigger: 'M',
      phoneNumberFilter: {},
      templateId: used.id,
      template: 'Sale today',
    });
    expect((await h.call('DELETE', url(account.id, used.id), token)).statusCode).toBe(200);
    const [campaign] = await h.database.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(campaign).toMatchObject({ templateId: null, template: 'Sale today' });
  });
});
