import { complianceKeyword, type ComplianceKeyword } from '@parley/shared';
import { setContactOptOut } from '../contacts/index.js';
import type { Tx } from '../../platform/db/client.js';
import type { MessageRow } from '../../platform/db/schema/index.js';
import type { KeywordContext, SupportDetails } from './keywordContext.js';
import { confirmPendingOptIns } from './optInConfirmation.js';
import { queueAutomaticReply } from './replies.js';

/** message.eventType of the automatic replies to keywords. */
export const KEYWORD_REPLY_EVENT_TYPES = {
  optOut: 'optOutConfirmation',
  optIn: 'optInConfirmation',
  help: 'helpReply',
} as const;

export { supportDetails, type KeywordContext, type SupportDetails } from './keywordContext.js';

export function optOutConfirmation(support: SupportDetails): string {
  return `${support.name}: You are unsubscribed and will receive no more messages from us. Reply START to subscribe again.`;
}

export function optInConfirmation(support: SupportDetails): string {
  return `${support.name}: You are subscribed again. Reply STOP to unsubscribe, HELP for help.`;
}

/** HELP and INFO: the account's support contact details, those it has, then how to stop. */
export function helpReply(support: SupportDetails): string {
  const ways = [
    support.phone === undefined ? null : `call ${support.phone}`,
    support.email === undefined ? null : `email ${support.email}`,
    support.website === undefined ? null : `visit ${support.website}`,
  ].filter((way): way is string => way !== null);
  const help =
    ways.length === 0
      ? ''
      : ` For help, ${ways.length === 1 ? ways[0] : `${ways.slice(0, -1).join(', ')} or ${ways[ways.length - 1]}`}.`;
  return `${support.name}:${help} Reply STOP to unsubscribe.`;
}

export interface KeywordOutcome {
  keyword: ComplianceKeyword;
  /** Whether the contact's consent changed (opted out, or back in). */
  changed: boolean;
  reply: MessageRow | null;
}

/**
 * Applies a compliance keyword of an incoming message, in the caller's transaction, before anything else may
 * answer it (auto responders must skip a message this handled). STOP and its kin opt the contact out of
 * everything the account sends; START, UNSTOP and YES opt it back in and lift a block (the only way
 * out of one); HELP and INFO answer with the account's support details. Each change is confirmed ONCE: a
 * second STOP from an opted-out contact, or a START from one who never left, changes nothing and gets no
 * reply; HELP is answered every time. Nothing is sent to a contact whose number is not valid.
 */
export async function applyComplianceKeyword(tx: Tx, context: KeywordContext): Promise<KeywordOutcome | null> {
  const keyword = complianceKeyword(context.message.body);
  if (keyword === null) return null;
  const { contact } = context;
  let text: string | null = null;
  let changed = false;
  switch (keyword.kind) {
    case 'optOut':
      if (contact.optedOutAt === null) {
        await setContactOptOut(tx, context.accountId, contact.id, true, context.now);
        changed = true;
        text = optOutConfirmation(context.support);
      }
      break;
    case 'optIn':
      if (contact.optedOutAt !== null || contact.blockedAt !== null) {
        await setContactOptOut(tx, context.accountId, contact.id, false, context.now);
        changed = true;
        text = optInConfirmation(context.support);
      }
      break;
    case 'help':
      text = helpReply(context.support);
      break;
  }
  if (keyword.kind === 'optIn') text = (await confirmPendingOptIns(tx, context, keyword.keyword)) ?? text;
  if (text === null || !contact.valid) return { keyword, changed, reply: null };
  const reply = await queueAutomaticReply(tx, {
    accountId: context.accountId,
    conversationId: context.conversationId,
    contactId: contact.id,
    phoneNumberId: context.phoneNumber.id,
    from: context.phoneNumber.number,
    to: contact.mobileNumber,
    text,
    replyToId: context.message.id,
    eventType: KEYWORD_REPLY_EVENT_TYPES[keyword.kind],
    now: context.now,
  });
  return { keyword, changed, reply };
}
