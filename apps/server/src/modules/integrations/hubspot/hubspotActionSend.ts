import { and, eq, sql } from 'drizzle-orm';
import { HUBSPOT_DEFAULT_PROPERTIES, hubspotPropertiesSchema } from '@parley/shared';
import type { Db, Tx } from '../../../platform/db/client.js';
import { isUuid } from '../../../platform/db/ids.js';
import { integrationContacts, integrations, templates, type IntegrationRow } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { sendMessagesIn } from '../../messaging/index.js';
import { chooseHubSpotMobile } from './hubspotMobile.js';
import type { HubSpotWorkflowAction } from './hubspotWorkflowAction.js';

/*
 * "Send an SMS with Parley", run by a HubSpot workflow (docs/integrations.md, "HubSpot"): the portal names
 * the Parley account, the enrolled contact's mobile (by the account's mobile property option) is texted
 * through the message sender, and the contact is linked to the HubSpot record it came from.
 */

/** HubSpot's custom action answer: its execution state, and why when it failed (the workflow goes on). */
export type HubSpotActionAnswer =
  | { outputFields: { hs_execution_state: 'SUCCESS'; messageId: string } }
  | { outputFields: { hs_execution_state: 'FAIL_CONTINUE'; errorCode: HubSpotActionErrorCode; errorMessage: string } };

export type HubSpotActionErrorCode = 'NOT_CONNECTED' | 'NO_MOBILE' | 'TEMPLATE_NOT_FOUND' | 'SEND_REFUSED';

export const HUBSPOT_ACTION_NOT_CONNECTED_MESSAGE = 'This HubSpot account is not connected to one Parley account';
export const HUBSPOT_ACTION_NO_MOBILE_MESSAGE = 'The HubSpot contact has no mobile number';
export const HUBSPOT_ACTION_TEMPLATE_MESSAGE = 'The Parley template was not found';

const failed = (errorCode: HubSpotActionErrorCode, errorMessage: string): HubSpotActionAnswer => ({ outputFields: { hs_execution_state: 'FAIL_CONTINUE', errorCode, errorMessage } });

/** The one connected integration of the portal; two Parley accounts with one portal cannot tell which sends. */
async function integrationOfPortal(db: Db, portalId: string): Promise<IntegrationRow | null> {
  const rows = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.kind, 'hubspot'), eq(integrations.status, 'connected'), sql`${integrations.connection}->>'hubId' = ${portalId}`))
    .limit(2);
  return rows.length === 1 ? (rows[0] ?? null) : null;
}

/** The text to send: the account's template of that id, else the action's message. */
async function textOf(tx: Tx, accountId: string, fields: Record<string, string>): Promise<{ template: string; templateId: string | null } | null> {
  const templateId = fields.templateId;
  if (templateId === undefined) return { template: fields.message ?? '', templateId: null };
  if (!isUuid(templateId)) return null;
  const [row] = await tx
    .select({ id: templates.id, template: templates.template })
    .from(templates)
    .where(and(eq(templates.accountId, accountId), eq(templates.id, templateId)))
    .limit(1);
  return row === undefined ? null : { template: row.template, templateId: row.id };
}

async function linkContact(tx: Tx, accountId: string, externalId: string, contactId: string): Promise<void> {
  // Linked without field values: a later sync takes only the fields Parley leaves empty (the conflict rule).
  await tx.insert(integrationContacts).values({ accountId, kind: 'hubspot', externalId, contactId, synced: {} }).onConflictDoNothing();
}

/** Sends the action's SMS; a refusal (not connected, no mobile, the sender's own) answers FAIL_CONTINUE. */
export async function sendHubSpotAction(db: Db, action: HubSpotWorkflowAction, now = new Date()): Promise<HubSpotActionAnswer> {
  const integration = await integrationOfPortal(db, action.portalId);
  if (integration === null) return failed('NOT_CONNECTED', HUBSPOT_ACTION_NOT_CONNECTED_MESSAGE);
  const parsed = hubspotPropertiesSchema.safeParse({ ...HUBSPOT_DEFAULT_PROPERTIES, ...integration.properties });
  const order = parsed.success ? parsed.data.mobileProperty : HUBSPOT_DEFAULT_PROPERTIES.mobileProperty;
  const mobile = chooseHubSpotMobile(action.properties, order);
  if (mobile === null) return failed('NO_MOBILE', HUBSPOT_ACTION_NO_MOBILE_MESSAGE);
  const { accountId } = integration;
  try {
    return await db.transaction(async (tx) => {
      const text = await textOf(tx, accountId, action.inputFields);
      if (text === null) return failed('TEMPLATE_NOT_FOUND', HUBSPOT_ACTION_TEMPLATE_MESSAGE);
      const result = await sendMessagesIn(tx, {
        accountId,
        actor: { kind: 'system' },
        contactsByMobile: [{ mobile: { number: mobile, country: undefined }, firstName: (action.properties.firstname ?? '').slice(0, 100), lastName: (action.properties.lastname ?? '').slice(0, 100) }],
        template: text.template,
        templateId: text.templateId,
        whenNoneSendable: 'throw',
        now,
      });
      const [message] = result.messages;
      if (message === undefined) return failed('SEND_REFUSED', 'The message was not sent');
      await linkContact(tx, accountId, action.contactId, message.contactId);
      return { outputFields: { hs_execution_state: 'SUCCESS' as const, messageId: message.id } };
    });
  } catch (error) {
    if (error instanceof AppError) return failed('SEND_REFUSED', error.message);
    throw error;
  }
}
