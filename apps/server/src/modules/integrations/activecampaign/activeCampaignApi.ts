import { z } from 'zod';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import { GuardedFetchError } from '../../../platform/net/guardedFetch.js';
import { ProviderError, retryAfterSeconds } from '../providerError.js';

/*
 * ActiveCampaign's API v3 (docs/integrations.md, "ActiveCampaign"): `Api-Token` header, offset paging with
 * `limit` (at most 100) and `meta.total`, 5 requests a second per account answered 429 beyond.
 */

export const AC_PAGE_SIZE = 100;

export interface AcTarget {
  /** The origin calls go to: the account's API URL, or ACTIVECAMPAIGN_API_BASE_URL. */
  origin: string;
  apiKey: string;
  fetch: GuardedFetch;
}

const total = z.union([z.string(), z.number()]).transform(Number).optional();
const meta = z.object({ total }).optional();
const text = z.string().nullish().transform((v) => v ?? '');

export const acContactSchema = z.object({ id: z.string(), email: text, firstName: text, lastName: text, phone: text });
const contactsAnswer = z.object({ contacts: z.array(acContactSchema), meta });
const tagsAnswer = z.object({ tags: z.array(z.object({ id: z.string(), tag: z.string() })), meta });
const contactTagsAnswer = z.object({ contactTags: z.array(z.object({ contact: z.string(), tag: z.string() })), meta });
const meAnswer = z.object({ user: z.object({ id: z.string(), email: text }) });
const noteAnswer = z.object({ note: z.object({ id: z.string() }) });

export type AcContact = z.infer<typeof acContactSchema>;

async function call<S extends z.ZodType>(target: AcTarget, path: string, schema: S, init: { method?: string; body?: object } = {}): Promise<z.infer<S>> {
  let answer;
  try {
    answer = await target.fetch(`${target.origin}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'Api-Token': target.apiKey, accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      maxRedirects: 0,
      timeoutMs: 20_000,
    });
  } catch (error) {
    if (error instanceof GuardedFetchError) throw new ProviderError('failed', `ActiveCampaign could not be reached: ${error.message}`);
    throw error;
  }
  if (answer.status === 401 || answer.status === 403) throw new ProviderError('unauthorized', 'ActiveCampaign refused the API key');
  if (answer.status === 429) {
    throw new ProviderError('rateLimited', 'ActiveCampaign asked to slow down', retryAfterSeconds(answer.headers.get('retry-after'), new Date()));
  }
  if (answer.status < 200 || answer.status >= 300) throw new ProviderError('failed', `ActiveCampaign answered ${String(answer.status)} to ${path.split('?')[0] ?? path}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new ProviderError('failed', 'ActiveCampaign answered something that is not JSON');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ProviderError('failed', `ActiveCampaign's answer to ${path.split('?')[0] ?? path} is not as documented`);
  return parsed.data;
}

const page = (offset: number): string => `limit=${String(AC_PAGE_SIZE)}&offset=${String(offset)}`;

/** The user the key belongs to: how a key is checked on connect. */
export const acMe = (target: AcTarget): Promise<z.infer<typeof meAnswer>> => call(target, '/api/3/users/me', meAnswer);

export async function acContacts(target: AcTarget, offset: number): Promise<{ contacts: AcContact[]; total: number | undefined }> {
  const answer = await call(target, `/api/3/contacts?${page(offset)}`, contactsAnswer);
  return { contacts: answer.contacts, total: answer.meta?.total };
}

/** Contacts whose names, e-mail or phone match `term`. */
export async function acSearchContacts(target: AcTarget, term: string): Promise<AcContact[]> {
  return (await call(target, `/api/3/contacts?search=${encodeURIComponent(term)}&limit=20`, contactsAnswer)).contacts;
}

/** Every tag of the account, by id (paged through). */
export async function acTagNames(target: AcTarget): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let offset = 0; ; offset += AC_PAGE_SIZE) {
    const answer = await call(target, `/api/3/tags?${page(offset)}`, tagsAnswer);
    for (const tag of answer.tags) names.set(tag.id, tag.tag);
    if (answer.tags.length < AC_PAGE_SIZE) return names;
  }
}

export async function acContactTags(target: AcTarget, offset: number): Promise<{ links: { contact: string; tag: string }[]; total: number | undefined }> {
  const answer = await call(target, `/api/3/contactTags?${page(offset)}`, contactTagsAnswer);
  return { links: answer.contactTags, total: answer.meta?.total };
}

/** A note on a contact (reltype Subscriber is a contact in API v3). */
export async function acAddNote(target: AcTarget, contactId: string, note: string): Promise<string> {
  const answer = await call(target, '/api/3/notes', noteAnswer, { method: 'POST', body: { note: { note, relid: contactId, reltype: 'Subscriber' } } });
  return answer.note.id;
}
