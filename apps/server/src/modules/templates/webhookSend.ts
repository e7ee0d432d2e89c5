import { and, eq } from 'drizzle-orm';
import { can, normaliseContactMobile } from '@parley/shared';
import { sendMessagesIn, type SendMessagesResult } from '../messaging/index.js';
import type { Db } from '../../platform/db/client.js';
import { accountMembers } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { contactForNumber } from './contactByNumber.js';
import { findPublicTemplate } from './publicTemplates.js';
import type { TemplateWebhookTarget } from './webhookLink.js';
import type { CrmContact } from './webhookPayloads.js';
import { isUuid } from '../../platform/db/ids.js';

export const TEMPLATE_NOT_FOUND = 'The template';
export const WEBHOOK_USER_REFUSED_MESSAGE = 'The user of this link is not a member of the account who may send messages.';
export const WEBHOOK_NO_PHONE_MESSAGE = 'The call names no phone number of the contact.';
export const webhookBadPhone = (phone: string, reason: string): AppError =>
  new AppError(400, 'bad_request', `The contact's phone number ${phone} cannot be texted: ${reason}`);

export interface WebhookSendResult extends SendMessagesResult {
  contactId: string;
}

/**
 * A Web template's web-hook call (the link's key already checked), in one transaction: the template must be a
 * Web template of an open account (else 404); the link's user must still be a member whose role may send
 * (else 403); the CRM's contact is found by number or created (blank details filled in); the template's text,
 * its tokens filled from the contact, is sent through the message sender as that user, from the group's
 * numbers, and charged. Nothing is kept when it cannot be sent (the sender's own refusal is the answer).
 */
export async function sendFromWebhook(db: Db, target: TemplateWebhookTarget, crm: CrmContact, now: Date = new Date()): Promise<WebhookSendResult> {
  const found = await findPublicTemplate(db, target.templateId, 'Web');
  if (found === null) throw notFound(TEMPLATE_NOT_FOUND);
  const { template, account } = found;
  const mobile = crm.phone === '' ? null : normaliseContactMobile(crm.phone, null, account.defaultCountry);
  if (mobile === null) throw new AppError(400, 'bad_request', WEBHOOK_NO_PHONE_MESSAGE);
  if (!mobile.valid) throw webhookBadPhone(crm.phone, mobile.errorDescription);

  return db.transaction(async (tx) => {
    const [member] = isUuid(target.userId)
      ? await tx
          .select({ role: accountMembers.role })
          .from(accountMembers)
          .where(and(eq(accountMembers.accountId, account.id), eq(accountMembers.userId, target.userId)))
          .limit(1)
      : [];
    if (member === undefined || !can(member.role, 'messages.send')) throw new AppError(403, 'forbidden', WEBHOOK_USER_REFUSED_MESSAGE);

    const { contact } = await contactForNumber(tx, account.id, mobile, crm, now);
    const result = await sendMessagesIn(tx, {
      accountId: account.id,
      actor: { kind: 'user', userId: target.userId },
      contactIds: [contact.id],
      template: template.template,
      media: template.media,
      phoneNumberFilter: target.groupId === null ? null : { group: target.groupId },
      templateId: template.id,
      whenNoneSendable: 'throw',
      now,
    });
    return { ...result, contactId: contact.id };
  });
}
