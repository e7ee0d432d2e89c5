import { z } from 'zod';
import { ProviderError } from '../providerError.js';
import { activitiesApi, dealsApi, notesApi, personsApi, usersApi, type PipedriveTarget } from './pipedriveClient.js';

/*
 * The Pipedrive calls Parley makes, through the official clients; each answer is checked against the
 * documented shape before it is used (docs/integrations.md, "Pipedrive").
 */

export const PIPEDRIVE_PAGE_SIZE = 100;

const text = z.string().nullish().transform((v) => v ?? '');
const phoneSchema = z.object({ value: text, primary: z.boolean().nullish(), label: text });
export const personSchema = z.object({
  id: z.number(),
  name: text,
  first_name: text,
  last_name: text,
  emails: z.array(z.object({ value: text, primary: z.boolean().nullish() })).nullish(),
  phones: z.array(phoneSchema).nullish(),
});
export type PipedrivePerson = z.infer<typeof personSchema>;

const personsPage = z.object({ data: z.array(personSchema).nullish(), additional_data: z.object({ next_cursor: z.string().nullish() }).nullish() });
const searchAnswer = z.object({ data: z.object({ items: z.array(z.object({ item: z.object({ id: z.number(), phones: z.array(z.string()).nullish() }) })).nullish() }).nullish() });
const created = z.object({ data: z.object({ id: z.number() }) });
const personAnswer = z.object({ data: personSchema });
const dealAnswer = z.object({ data: z.object({ id: z.number(), person_id: z.number().nullish() }) });
const meAnswer = z.object({ data: z.object({ company_id: z.number(), company_domain: text, company_name: text }) });

function parsed<S extends z.ZodType>(schema: S, answer: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(answer);
  if (!result.success) throw new ProviderError('failed', `Pipedrive's answer to ${what} is not as documented`);
  return result.data;
}

/** The company the token belongs to (GET /v1/users/me). */
export async function pipedriveMe(t: PipedriveTarget): Promise<{ companyId: string; companyDomain: string; companyName: string }> {
  const { data } = parsed(meAnswer, await usersApi(t).getCurrentUser(), 'users/me');
  return { companyId: String(data.company_id), companyDomain: data.company_domain, companyName: data.company_name };
}

/** A page of persons (GET /api/v2/persons), and the cursor of the next (null: the last). */
export async function pipedrivePersons(t: PipedriveTarget, cursor: string | null): Promise<{ persons: PipedrivePerson[]; next: string | null }> {
  const answer = parsed(personsPage, await personsApi(t).getPersons({ limit: PIPEDRIVE_PAGE_SIZE, ...(cursor === null ? {} : { cursor }) }), 'persons');
  return { persons: answer.data ?? [], next: answer.additional_data?.next_cursor ?? null };
}

/** Persons whose phone matches `term` (GET /api/v2/persons/search), with their phones. */
export async function pipedriveSearchByPhone(t: PipedriveTarget, term: string): Promise<{ id: number; phones: string[] }[]> {
  const answer = parsed(searchAnswer, await personsApi(t).searchPersons({ term, fields: 'phone', limit: 20 }), 'persons/search');
  return (answer.data?.items ?? []).map(({ item }) => ({ id: item.id, phones: item.phones ?? [] }));
}

export async function pipedrivePerson(t: PipedriveTarget, id: number): Promise<PipedrivePerson> {
  return parsed(personAnswer, await personsApi(t).getPerson({ id }), 'persons/{id}').data;
}

/** The person of a deal, if it has one. */
export async function pipedriveDealPerson(t: PipedriveTarget, id: number): Promise<number | null> {
  return parsed(dealAnswer, await dealsApi(t).getDeal({ id }), 'deals/{id}').data.person_id ?? null;
}

export async function pipedriveAddPerson(t: PipedriveTarget, person: { name: string; mobile: string; email: string }): Promise<number> {
  const answer = await personsApi(t).addPerson({
    AddPersonRequest: {
      name: person.name,
      phones: [{ value: person.mobile, primary: true, label: 'mobile' }],
      ...(person.email === '' ? {} : { emails: [{ value: person.email, primary: true, label: 'work' }] }),
    },
  });
  return parsed(created, answer, 'POST persons').data.id;
}

/** A done call activity on the person (POST /api/v2/activities). */
export async function pipedriveAddActivity(t: PipedriveTarget, activity: { personId: number; subject: string; note: string; dueDate: string }): Promise<number> {
  const answer = await activitiesApi(t).addActivity({
    AddActivityRequest: { type: 'call', subject: activity.subject, done: true, person_id: activity.personId, note: activity.note, due_date: activity.dueDate },
  });
  return parsed(created, answer, 'POST activities').data.id;
}

/** A note on the person (POST /v1/notes). */
export async function pipedriveAddNote(t: PipedriveTarget, note: { personId: number; content: string }): Promise<number> {
  const answer = await notesApi(t).addNote({ AddNoteRequest: { content: note.content, person_id: note.personId } });
  return parsed(created, answer, 'POST notes').data.id;
}
