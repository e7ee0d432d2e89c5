import { z } from 'zod';
import { ProviderError } from '../providerError.js';
import { intercomClient, type IntercomTarget } from './intercomClient.js';

/*
 * The Intercom calls Parley makes, through the official client; each answer is checked against the
 * documented shape before it is used (docs/integrations.md, "Intercom").
 */

const id = z.union([z.string().min(1), z.number()]).transform(String);
const meAnswer = z.object({ id, app: z.object({ id_code: z.string().min(1), name: z.string().nullish() }) });
const contactAnswer = z.object({ id, phone: z.string().nullish() });
const searchAnswer = z.array(contactAnswer);
const messageAnswer = z.object({ conversation_id: id });

function parsed<S extends z.ZodType>(schema: S, answer: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(answer);
  if (!result.success) throw new ProviderError('failed', `Intercom's answer to ${what} is not as documented`);
  return result.data;
}

/** The admin the token acts as and the workspace it belongs to (GET /me). */
export async function intercomMe(t: IntercomTarget): Promise<{ adminId: string; appId: string; appName: string }> {
  const me = parsed(meAnswer, await intercomClient(t).admins.identify(), 'me');
  return { adminId: me.id, appId: me.app.id_code, appName: me.app.name ?? me.app.id_code };
}

/** The contacts whose phone is exactly this one (POST /contacts/search). */
export async function intercomContactsByPhone(t: IntercomTarget, phone: string): Promise<{ id: string; phone: string }[]> {
  const page = await intercomClient(t).contacts.search({ query: { field: 'phone', operator: '=', value: phone } });
  return parsed(searchAnswer, page.data, 'contacts/search').map((c) => ({ id: c.id, phone: c.phone ?? '' }));
}

/** A user with this phone and name (POST /contacts). */
export async function intercomCreateContact(t: IntercomTarget, contact: { phone: string; name: string }): Promise<string> {
  const answer = await intercomClient(t).contacts.create({ role: 'user', phone: contact.phone, ...(contact.name === '' ? {} : { name: contact.name }) });
  return parsed(contactAnswer, answer, 'POST contacts').id;
}

/** A conversation started by the contact with its first message (POST /conversations); answers its id. */
export async function intercomStartConversation(t: IntercomTarget, contactId: string, body: string): Promise<string> {
  const answer = await intercomClient(t).conversations.create({ from: { type: 'user', id: contactId }, body });
  return parsed(messageAnswer, answer, 'POST conversations').conversation_id;
}

/** The contact's reply in a conversation (POST /conversations/{id}/reply). */
export async function intercomReplyAsContact(t: IntercomTarget, conversationId: string, contactId: string, body: string): Promise<void> {
  await intercomClient(t).conversations.reply({ conversation_id: conversationId, body: { message_type: 'comment', type: 'user', intercom_user_id: contactId, body } });
}

/** Closes a conversation as the admin who connected (POST /conversations/{id}/parts). */
export async function intercomClose(t: IntercomTarget, conversationId: string, adminId: string): Promise<void> {
  await intercomClient(t).conversations.manage({ conversation_id: conversationId, body: { message_type: 'close', type: 'admin', admin_id: adminId } });
}

/** A note to the workspace's agents in a conversation, as the connecting admin (the contact does not see it). */
export async function intercomNote(t: IntercomTarget, conversationId: string, adminId: string, body: string): Promise<void> {
  await intercomClient(t).conversations.reply({ conversation_id: conversationId, body: { message_type: 'note', type: 'admin', admin_id: adminId, body } });
}
