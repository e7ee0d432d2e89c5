import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  addListContactsSchema,
  createContactSchema,
  saveAutoResponderSchema,
  saveGroupSchema,
  saveListSchema,
  saveTemplateSchema,
} from '@parley/shared';
import { createAutoResponder } from '../modules/autoResponders/index.js';
import { createContact } from '../modules/contacts/index.js';
import { createGroup } from '../modules/groups/index.js';
import { addContactsToList, createList } from '../modules/lists/index.js';
import { createTemplate } from '../modules/templates/index.js';
import type { Db } from '../platform/db/client.js';
import { accountMembers, autoResponders, contactGroups, contactLists, contacts, templates } from '../platform/db/schema/index.js';
import type { TemplateViewer } from '../modules/templates/index.js';
import { demoAutoResponder, demoContacts, demoGroups, demoList, demoTemplates } from './demoData.js';

/*
 * The demo's records, each made by the command the API uses and only when the account does not have it yet
 * (a contact by number, the others by name): a second run finds them all and adds nothing.
 */

const lowerName = (column: typeof contactLists.name | typeof contactGroups.name | typeof templates.name) => sql`lower(${column})`;

/** The demo contacts by key, made where missing; answers their ids and how many were made. */
export async function ensureContacts(db: Db, accountId: string): Promise<{ ids: Map<string, string>; created: number }> {
  const numbers = demoContacts.map((c) => c.number);
  const existing = await db
    .select({ id: contacts.id, number: contacts.mobileNumber })
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), inArray(contacts.mobileNumber, numbers)));
  const byNumber = new Map(existing.map((row) => [row.number, row.id]));
  const ids = new Map<string, string>();
  let created = 0;
  for (const demo of demoContacts) {
    let id = byNumber.get(demo.number);
    if (id === undefined) {
      const input = createContactSchema.parse({
        firstName: demo.firstName,
        lastName: demo.lastName,
        mobile: { number: demo.number, country: demo.country },
        email: demo.email,
        tags: demo.tags,
        attributes: demo.attributes,
      });
      id = (await createContact(db, accountId, input)).contact.id;
      created += 1;
    }
    ids.set(demo.key, id);
  }
  return { ids, created };
}

/** The newsletter list with the contacts tagged for it, opted in at checkout; answers what was added. */
export async function ensureList(db: Db, accountId: string, ids: ReadonlyMap<string, string>): Promise<{ lists: number; members: number }> {
  const [found] = await db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(and(eq(contactLists.accountId, accountId), eq(lowerName(contactLists.name), demoList.name.toLowerCase())));
  const listId = found?.id ?? (await createList(db, accountId, saveListSchema.parse({ name: demoList.name }))).list.id;
  const members = demoContacts.filter((c) => c.tags.includes(demoList.tag)).map((c) => ids.get(c.key) ?? '');
  const { added } = await addContactsToList(
    db,
    accountId,
    listId,
    addListContactsSchema.parse({ contactIds: members, optIn: true, consentSource: demoList.consentSource }),
  );
  return { lists: found === undefined ? 1 : 0, members: added };
}

/** The two groups with the account's users; the first holds the number, so its conversations are that group's. */
export async function ensureGroups(db: Db, accountId: string, numberId: string): Promise<number> {
  const members = await db
    .select({ userId: accountMembers.userId, role: accountMembers.role })
    .from(accountMembers)
    .where(eq(accountMembers.accountId, accountId));
  let created = 0;
  for (const group of demoGroups) {
    const [found] = await db
      .select({ id: contactGroups.id })
      .from(contactGroups)
      .where(and(eq(contactGroups.accountId, accountId), eq(lowerName(contactGroups.name), group.name.toLowerCase())));
    if (found) continue;
    const users = members.filter((m) => group.members === 'everyone' || m.role === 'Administrator').map((m) => m.userId);
    await createGroup(
      db,
      accountId,
      saveGroupSchema.parse({ name: group.name, tags: group.tags, users, phoneNumbers: group.holdsNumber ? [numberId] : [] }),
    );
    created += 1;
  }
  return created;
}

export async function ensureTemplates(db: Db, accountId: string, viewer: TemplateViewer): Promise<number> {
  const names = await db
    .select({ name: lowerName(templates.name) })
    .from(templates)
    .where(eq(templates.accountId, accountId));
  const taken = new Set(names.map((row) => String(row.name)));
  let created = 0;
  for (const template of demoTemplates) {
    if (taken.has(template.name.toLowerCase())) continue;
    await createTemplate(db, accountId, viewer, saveTemplateSchema.parse(template));
    created += 1;
  }
  return created;
}

/** The auto responder, unless the account has one with that match already. */
export async function ensureAutoResponder(db: Db, accountId: string, userId: string | null): Promise<number> {
  const [found] = await db
    .select({ id: autoResponders.id })
    .from(autoResponders)
    .where(and(eq(autoResponders.accountId, accountId), sql`lower(${autoResponders.match}) = ${demoAutoResponder.match.toLowerCase()}`));
  if (found) return 0;
  await createAutoResponder(db, accountId, userId, saveAutoResponderSchema.parse(demoAutoResponder));
  return 1;
}
