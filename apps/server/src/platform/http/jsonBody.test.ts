import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListRecord } from '@parley/shared';
import { addConversation } from '../../test/conversations.js';
import { JSON_BODY_REQUIRED_MESSAGE } from './jsonBody.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { useRouteHarness } from '../../test/routeHarness.js';
import { sendingAccount, type SendingAccount } from '../../test/sendingFixtures.js';

// Many HTTP clients (and the API reference's own curl samples) send `Content-Type: application/json` with
// every request, also a DELETE or a PUT that carries nothing.
describe.each(testDatabaseKinds)('JSON request bodies on %s', (kind) => {
  const { h } = useRouteHarness(kind);

  let account: SendingAccount;
  let token: string;
  beforeAll(async () => {
    account = await sendingAccount(h.database.db);
    token = h.tokenFor(account.adminId);
  });

  const raw = (method: 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: string) =>
    h.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  const listsUrl = () => `/v1/accounts/${account.accountId}/lists`;
  async function newList(name: string): Promise<ListRecord> {
    const res = await h.call('POST', listsUrl(), token, { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: ListRecord }>().data;
  }
  const errorOf = (res: LightMyRequestResponse) => res.json<{ error: { code: string; message: string } }>().error;

  it('takes a DELETE with the JSON content type and no body', async () => {
    const list = await newList(`Empty delete ${String(Date.now())}`);
    const res = await raw('DELETE', `${listsUrl()}/${list.id}`, { 'content-type': 'application/json' });
    expect(res.statusCode, res.body).toBe(204);
    expect((await h.call('GET', `${listsUrl()}/${list.id}`, token)).statusCode).toBe(404);

    const other = await newList(`Empty delete, length 0 ${String(Date.now())}`);
    const withLength = await raw('DELETE', `${listsUrl()}/${other.id}`, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': '0',
    });
    expect(withLength.statusCode, withLength.body).toBe(204);
  });

  it('takes a PUT without a body (close a conversation) with the JSON content type', async () => {
    const conversation = await addConversation(h.database.db, account);
    const res = await raw('PUT', `/v1/accounts/${account.accountId}/conversations/${conversation.id}/close`, {
      'content-type': 'application/json',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { closed: string | null } }>().data.closed).not.toBeNull();
  });

  it('still refuses an empty body where the route needs one, as a validation failure', async () => {
    const res = await raw('POST', listsUrl(), { 'content-type': 'application/json' });
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res)).toEqual({ code: 'validation_failed', message: JSON_BODY_REQUIRED_MESSAGE });

    const list = await newList(`Rename me ${String(Date.now())}`);
    const rename = await raw('PUT', `${listsUrl()}/${list.id}`, { 'content-type': 'application/json' });
    expect(rename.statusCode, rename.body).toBe(400);
    expect(errorOf(rename)).toEqual({ code: 'validation_failed', message: JSON_BODY_REQUIRED_MESSAGE });
    expect((await h.call('GET', `${listsUrl()}/${list.id}`, token)).json<{ data: ListRecord }>().data.name).toBe(list.name);
  });

  it('still refuses malformed JSON, whitespace alone included, and a poisoned prototype', async () => {
    for (const payload of ['{"name":', 'not json', '   ', '{"name":"x","__proto__":{"admin":true}}']) {
      const res = await raw('POST', listsUrl(), { 'content-type': 'application/json' }, payload);
      expect(res.statusCode, payload).toBe(400);
      expect(errorOf(res).code, payload).toBe('bad_request');
    }
    const list = await newList(`Malformed delete ${String(Date.now())}`);
    const res = await raw('DELETE', `${listsUrl()}/${list.id}`, { 'content-type': 'application/json' }, '{');
    expect(res.statusCode).toBe(400);
    expect((await h.call('GET', `${listsUrl()}/${list.id}`, token)).statusCode).toBe(200);
  });

  it('reads a JSON body as before', async () => {
    const res = await raw('POST', listsUrl(), { 'content-type': 'application/json' }, JSON.stringify({ name: `Plain ${String(Date.now())}` }));
    expect(res.statusCode, res.body).toBe(201);
  });
});
