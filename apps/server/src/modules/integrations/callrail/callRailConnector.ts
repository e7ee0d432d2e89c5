import { randomBytes } from 'node:crypto';
import { CALLRAIL_DEFAULT_PROPERTIES, callRailConnectSchema, callRailPropertiesSchema } from '@parley/shared';
import type { Connector, ConnectorSession } from '../connector.js';
import { ProviderError } from '../providerError.js';
import { callRailAccounts, callRailCalls, type CallRailTarget } from './callRailApi.js';
import { callersOf, providerCallOf } from './callRailCalls.js';

/** How far back a sync imports calls. */
export const CALLRAIL_SYNC_DAYS = 30;

export const callRailAccountNotReached = (accountId: string): string => `The API key does not reach the CallRail account ${accountId}`;

const targetOf = (session: Pick<ConnectorSession, 'config' | 'fetch'>, apiKey: string): CallRailTarget => ({
  origin: session.config.integrations.callRailApiBaseUrl,
  apiKey,
  fetch: session.fetch,
});

/** The sync's cursor: the page to read and the first day of the calls, fixed when the sync starts. */
function cursorOf(cursor: string | null, now: Date): { page: number; startDate: string } {
  const [page = '', startDate = ''] = (cursor ?? '').split(':');
  if (/^\d+$/.test(page) && /^\d{4}-\d{2}-\d{2}$/.test(startDate)) return { page: Number(page), startDate };
  return { page: 1, startDate: new Date(now.getTime() - CALLRAIL_SYNC_DAYS * 86_400_000).toISOString().slice(0, 10) };
}

export const callRailConnector: Connector = {
  kind: 'callrail',
  auth: {
    type: 'apiKey',
    fields: callRailConnectSchema,
    async connect(session, fields) {
      const apiKey = fields.apiKey ?? '';
      const accountId = fields.accountId ?? '';
      const account = (await callRailAccounts(targetOf(session, apiKey))).find((a) => a.id === accountId);
      if (account === undefined) throw new ProviderError('failed', callRailAccountNotReached(accountId));
      // The webhook's address names the connection by this token; the signature is what proves CallRail sent it.
      const webhookToken = randomBytes(18).toString('base64url');
      return {
        credentials: { apiKey, accountId, signingKey: fields.signingKey ?? '' },
        connection: { accountId, accountName: account.name, webhookToken },
      };
    },
  },
  properties: callRailPropertiesSchema,
  defaultProperties: CALLRAIL_DEFAULT_PROPERTIES,
  operatorHosts: (config) => [new URL(config.integrations.callRailApiBaseUrl).hostname],
  sync: {
    // CallRail keeps calls, not contacts: a contacts sync reads the recent calls, brings in their callers and
    // files the calls in their conversations (docs/integrations.md, "CallRail").
    async contacts(session, cursor) {
      const { page, startDate } = cursorOf(cursor, new Date());
      const answer = await callRailCalls(targetOf(session, session.credentials.apiKey ?? ''), session.credentials.accountId ?? '', page, startDate);
      const calls = answer.calls.flatMap((c) => providerCallOf(c) ?? []);
      return {
        items: callersOf(answer.calls),
        calls,
        // No total: CallRail counts calls, the progress counts their callers.
        next: answer.page >= answer.totalPages ? null : `${String(answer.page + 1)}:${startDate}`,
      };
    },
  },
};
