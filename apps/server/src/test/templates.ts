import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Queryable } from '../platform/db/client.js';
import { contactLists, templates, type TemplateRow } from '../platform/db/schema/index.js';

/** A template row written directly (an SMS template unless `overrides` says otherwise). */
export async function insertTemplate(
  q: Queryable,
  accountId: string,
  overrides: Partial<typeof templates.$inferInsert> = {},
): Promise<TemplateRow> {
  const [row] = await q
    .insert(templates)
    .values({ id: uuidv7(), accountId, name: `Template ${randomUUID().slice(0, 8)}`, type: 'SMS', template: 'Hello {{{firstName}}}', ...overrides })
    .returning();
  if (!row) throw new Error('template insert returned nothing');
  return row;
}

/** An OptIn template of the account with a list of its own to sign up to. */
export async function insertOptInTemplate(
  q: Queryable,
  accountId: string,
  text = 'Reply YES to get our weekly deals. Reply STOP to opt out.',
): Promise<{ template: TemplateRow; listId: string }> {
  const listId = uuidv7();
  await q.insert(contactLists).values({ id: listId, accountId, name: `Deals ${randomUUID().slice(0, 8)}` });
  const template = await insertTemplate(q, accountId, { type: 'OptIn', template: text, optInListId: listId });
  return { template, listId };
}
