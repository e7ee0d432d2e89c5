import { z } from 'zod';
import { GuardedFetchError, type GuardedFetch } from '../../../platform/net/guardedFetch.js';
import { ProviderError, retryAfterSeconds } from '../providerError.js';

/*
 * Cradle's API as Parley assumes it (docs/integrations.md, "Cradle": no public reference was available, so
 * every shape here is an assumption kept in one place): JSON under CRADLE_API_BASE_URL/v1 with `Authorization:
 * Bearer <API key>`; GET /v1/account names the account the key belongs to; POST /v1/webhooks registers a URL
 * with the secret Cradle signs each event with; DELETE /v1/webhooks/{id} removes it.
 */

export interface CradleTarget {
  origin: string;
  apiKey: string;
  fetch: GuardedFetch;
}

export const CRADLE_NOT_CONFIGURED = 'Cradle is not configured on this server';
/** The events Parley's webhook asks for: a call that ended, whatever became of it. */
export const CRADLE_WEBHOOK_EVENTS = ['call.completed'] as const;

async function call<S extends z.ZodType>(target: CradleTarget, method: 'GET' | 'POST' | 'DELETE', path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
  let answer;
  try {
    answer = await target.fetch(`${target.origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${target.apiKey}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      maxRedirects: 0,
      timeoutMs: 20_000,
    });
  } catch (error) {
    if (error instanceof GuardedFetchError) throw new ProviderError('failed', `Cradle could not be reached: ${error.message}`);
    throw error;
  }
  if (answer.status === 401 || answer.status === 403) throw new ProviderError('unauthorized', 'Cradle refused the API key');
  if (answer.status === 429) throw new ProviderError('rateLimited', 'Cradle asked to slow down', retryAfterSeconds(answer.headers.get('retry-after'), new Date()));
  if (answer.status < 200 || answer.status >= 300) throw new ProviderError('failed', `Cradle answered ${String(answer.status)} to ${path}`);
  const text = answer.body.toString('utf8');
  let json: unknown;
  try {
    json = text.trim() === '' ? null : JSON.parse(text);
  } catch {
    throw new ProviderError('failed', `Cradle's answer to ${path} is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ProviderError('failed', `Cradle's answer to ${path} is not as expected`);
  return parsed.data;
}

const idOf = z.union([z.string(), z.number()]).transform(String);

export const cradleAccount = (target: CradleTarget): Promise<{ id: string; name: string }> =>
  call(target, 'GET', '/v1/account', z.object({ id: idOf, name: z.string().nullish().transform((v) => v ?? '') }));

export async function cradleCreateWebhook(target: CradleTarget, input: { url: string; secret: string }): Promise<string> {
  const answer = await call(target, 'POST', '/v1/webhooks', z.object({ id: idOf }), { url: input.url, secret: input.secret, events: CRADLE_WEBHOOK_EVENTS });
  return answer.id;
}

export async function cradleDeleteWebhook(target: CradleTarget, webhookId: string): Promise<void> {
  await call(target, 'DELETE', `/v1/webhooks/${encodeURIComponent(webhookId)}`, z.unknown());
}
