import { z } from 'zod';
import type { AirCallConfig } from '../../../platform/config.js';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import { ProviderError } from '../providerError.js';
import { aircallCall, nextPageOf, type AirCallTarget } from './aircallHttp.js';

/* The AirCall calls Parley makes (docs/integrations.md, "AirCall"); no AirCall client library is used. */

const idOf = z.union([z.string(), z.number()]).transform(String);
const text = z.string().nullish().transform((v) => v ?? '');
const meta = z.object({ next_page_link: z.string().nullish() }).partial().nullish();

export interface AirCallNumber {
  id: string;
  name: string;
  digits: string;
}
export interface AirCallUserRecord {
  id: string;
  name: string;
  email: string;
}

const numbersPage = z.object({ numbers: z.array(z.object({ id: idOf, name: text, digits: text })), meta });
const usersPage = z.object({ users: z.array(z.object({ id: idOf, name: text, email: text })), meta });

/** Every page of a list, following `meta.next_page_link` on AirCall's host only; at most `maxPages`. */
async function allPages<T>(target: AirCallTarget, first: string, read: (url: string) => Promise<{ items: T[]; next: string | null | undefined }>, maxPages = 50): Promise<T[]> {
  const found: T[] = [];
  let url: string | null = first;
  for (let page = 0; url !== null && page < maxPages; page += 1) {
    const answer = await read(url);
    found.push(...answer.items);
    url = nextPageOf(target, answer.next);
  }
  return found;
}

export const aircallNumbers = (target: AirCallTarget): Promise<AirCallNumber[]> =>
  allPages(target, '/v1/numbers?per_page=50', async (url) => {
    const answer = await aircallCall(target, 'GET', url, numbersPage);
    return { items: answer.numbers, next: answer.meta?.next_page_link };
  });

export const aircallUsers = (target: AirCallTarget): Promise<AirCallUserRecord[]> =>
  allPages(target, '/v1/users?per_page=50', async (url) => {
    const answer = await aircallCall(target, 'GET', url, usersPage);
    return { items: answer.users, next: answer.meta?.next_page_link };
  });

/** The events Parley's webhook asks for: a call's life and its voicemail. */
export const AIRCALL_WEBHOOK_EVENTS = ['call.created', 'call.answered', 'call.hungup', 'call.ended', 'call.voicemail_left'] as const;

const webhookAnswer = z.object({ webhook: z.object({ webhook_id: idOf, token: z.string().min(1), active: z.boolean().optional() }) });

/** Creates the webhook to `url`; answers its id and the token AirCall will put in each event's body. */
export async function aircallCreateWebhook(target: AirCallTarget, url: string): Promise<{ webhookId: string; token: string }> {
  const answer = await aircallCall(target, 'POST', '/v1/webhooks', webhookAnswer, { custom_name: 'Parley', url, events: AIRCALL_WEBHOOK_EVENTS });
  return { webhookId: answer.webhook.webhook_id, token: answer.webhook.token };
}

/** Whether the webhook is still there and active (AirCall turns off one that failed too often). */
export async function aircallWebhookActive(target: AirCallTarget, webhookId: string): Promise<boolean> {
  try {
    const answer = await aircallCall(target, 'GET', `/v1/webhooks/${encodeURIComponent(webhookId)}`, webhookAnswer);
    return answer.webhook.active !== false;
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'failed') return false;
    throw error;
  }
}

export async function aircallDeleteWebhook(target: AirCallTarget, webhookId: string): Promise<void> {
  await aircallCall(target, 'DELETE', `/v1/webhooks/${encodeURIComponent(webhookId)}`, z.unknown());
}

/** Who connected: the company AirCall's app is installed in (GET /v1/integrations/me). */
export async function aircallMe(target: AirCallTarget): Promise<{ companyId: string; companyName: string }> {
  const answer = await aircallCall(
    target,
    'GET',
    '/v1/integrations/me',
    z.object({ integration: z.object({ company_id: idOf.nullish(), name: text, custom_name: text }) }),
  );
  const { company_id: companyId, name, custom_name: customName } = answer.integration;
  return { companyId: companyId ?? '', companyName: customName !== '' ? customName : name };
}

/** An insight card on the call (shown with it in AirCall's phone and its call details). */
export async function aircallInsightCard(target: AirCallTarget, callId: string, contents: { type: 'title' | 'shortText'; text: string; label?: string }[]): Promise<void> {
  await aircallCall(target, 'POST', `/v1/calls/${encodeURIComponent(callId)}/insight_cards`, z.unknown(), { contents });
}

/** Trades the authorization code for the company's access token (AirCall's tokens do not expire). */
export async function aircallTokenCall(fetch: GuardedFetch, config: AirCallConfig, input: { code: string; redirectUri: string }): Promise<string> {
  if (config.app === null) throw new ProviderError('failed', 'AirCall is not configured on this server');
  const target: AirCallTarget = { origin: config.apiBaseUrl, accessToken: '', fetch };
  try {
    const answer = await aircallCall(target, 'POST', '/v1/oauth/token', z.object({ access_token: z.string().min(1) }), {
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri,
      client_id: config.app.clientId,
      client_secret: config.app.clientSecret,
    });
    return answer.access_token;
  } catch (error) {
    // A refused code (400) means the same as a refused token: connect again.
    if (error instanceof ProviderError && error.message.startsWith('AirCall answered 400')) throw new ProviderError('unauthorized', 'AirCall refused the authorization; connect again');
    throw error;
  }
}
