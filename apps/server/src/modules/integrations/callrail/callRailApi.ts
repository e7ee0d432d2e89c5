import { z } from 'zod';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import { GuardedFetchError } from '../../../platform/net/guardedFetch.js';
import { ProviderError, retryAfterSeconds } from '../providerError.js';

/*
 * CallRail's API v3 (docs/integrations.md, "CallRail"): `Authorization: Token token="<key>"`, JSON under
 * /v3, page-numbered lists (`page`, `per_page` up to 250, `total_pages`, `total_records`), 429 with
 * Retry-After past its rate limits.
 */

export const CALLRAIL_PAGE_SIZE = 100;

export interface CallRailTarget {
  /** CALLRAIL_API_BASE_URL (https://api.callrail.com). */
  origin: string;
  apiKey: string;
  fetch: GuardedFetch;
}

const text = z.string().nullish().transform((v) => v ?? '');
const paging = { page: z.number().int(), total_pages: z.number().int(), total_records: z.number().int().optional() };

/** One call, as the calls list and the post-call webhook both write it (the fields Parley reads). */
export const callRailCallSchema = z.object({
  id: z.string().optional(),
  resource_id: z.string().optional(),
  answered: z.boolean().nullish(),
  voicemail: z.boolean().nullish(),
  direction: z.string().nullish(),
  duration: z.union([z.number(), z.string()]).nullish(),
  start_time: z.string(),
  customer_phone_number: z.string(),
  customer_name: text,
  tracking_phone_number: text,
  business_phone_number: text,
  recording: text,
  source: text,
  campaign: text,
  medium: text,
  keywords: text,
  company_name: text,
});
export type CallRailCall = z.infer<typeof callRailCallSchema>;

const accountsAnswer = z.object({ ...paging, accounts: z.array(z.object({ id: z.union([z.string(), z.number()]).transform(String), name: text })) });
const callsAnswer = z.object({ ...paging, calls: z.array(callRailCallSchema) });

async function call<S extends z.ZodType>(target: CallRailTarget, path: string, schema: S): Promise<z.infer<S>> {
  let answer;
  try {
    answer = await target.fetch(`${target.origin}${path}`, {
      method: 'GET',
      headers: { authorization: `Token token="${target.apiKey}"`, accept: 'application/json' },
      maxRedirects: 0,
      timeoutMs: 20_000,
    });
  } catch (error) {
    if (error instanceof GuardedFetchError) throw new ProviderError('failed', `CallRail could not be reached: ${error.message}`);
    throw error;
  }
  const where = path.split('?')[0] ?? path;
  if (answer.status === 401 || answer.status === 403) throw new ProviderError('unauthorized', 'CallRail refused the API key');
  if (answer.status === 429) throw new ProviderError('rateLimited', 'CallRail asked to slow down', retryAfterSeconds(answer.headers.get('retry-after'), new Date()));
  if (answer.status < 200 || answer.status >= 300) throw new ProviderError('failed', `CallRail answered ${String(answer.status)} to ${where}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new ProviderError('failed', 'CallRail answered something that is not JSON');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ProviderError('failed', `CallRail's answer to ${where} is not as documented`);
  return parsed.data;
}

/** The accounts the key reaches, every page of them (an agency's key reaches several). */
export async function callRailAccounts(target: CallRailTarget): Promise<{ id: string; name: string }[]> {
  const found: { id: string; name: string }[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await call(target, `/v3/a.json?page=${String(page)}&per_page=${String(CALLRAIL_PAGE_SIZE)}`, accountsAnswer);
    found.push(...answer.accounts);
    if (answer.page >= answer.total_pages) return found;
  }
}

/** The tracking data Parley asks for beside the default fields of a call. */
const CALL_FIELDS = 'source,campaign,medium,keywords,company_name';

/** One page of the account's calls since `startDate` (YYYY-MM-DD), newest first as CallRail sorts them. */
export async function callRailCalls(
  target: CallRailTarget,
  accountId: string,
  page: number,
  startDate: string,
): Promise<{ calls: CallRailCall[]; page: number; totalPages: number; total: number | undefined }> {
  const query = `page=${String(page)}&per_page=${String(CALLRAIL_PAGE_SIZE)}&start_date=${startDate}&fields=${CALL_FIELDS}`;
  const answer = await call(target, `/v3/a/${encodeURIComponent(accountId)}/calls.json?${query}`, callsAnswer);
  return { calls: answer.calls, page: answer.page, totalPages: answer.total_pages, total: answer.total_records };
}
