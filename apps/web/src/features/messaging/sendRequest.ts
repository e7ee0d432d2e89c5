import type { MessageMedia, SendMessageInput, SendMessageResult } from '@parley/shared';

export interface SendDraft {
  contactIds: readonly string[];
  template: string;
  /** '' lets each contact keep the number it last talked to. */
  phoneNumberId: string;
  /** Uploaded attachments (at most 5); a media-only message sends an empty template. */
  media?: readonly MessageMedia[];
  /** The sender chose to send at once, outside the one recipient's acceptable hours. */
  sendNow?: boolean;
}

/** The POST body of a draft: a chosen number goes as phoneNumberFilter.group (a group or number id). */
export const sendRequestOf = (draft: SendDraft): SendMessageInput => ({
  contacts: [...new Set(draft.contactIds)],
  template: draft.template,
  ...(draft.phoneNumberId === '' ? {} : { phoneNumberFilter: { group: draft.phoneNumberId } }),
  ...(draft.media === undefined || draft.media.length === 0 ? {} : { media: draft.media.map((m) => ({ ...m })) }),
  ...(draft.sendNow === true ? { sendNow: true } : {}),
});

/** Send is possible once there is text or media and a recipient (and the person may send). */
export const canSend = (draft: SendDraft, verified: boolean): boolean =>
  verified && (draft.template.trim() !== '' || (draft.media?.length ?? 0) > 0) && draft.contactIds.length > 0;

/** What the snackbar says after a send: how many went, how many wait for quiet hours, who was left out. */
export function sentNotice(result: SendMessageResult): string {
  const { messages, invalid } = result.data;
  const sent = messages.length;
  const parts = [sent === 1 ? 'Message sent' : `${String(sent)} messages sent`];
  const held = messages.filter((m) => m.sendAfter !== undefined).length;
  if (held > 0) parts.push(`${held === sent ? (sent === 1 ? 'it waits' : 'they wait') : `${String(held)} wait`} for the recipient's quiet hours to end`);
  const [first] = invalid;
  if (first !== undefined) {
    const others = invalid.length - 1;
    parts.push(`${String(invalid.length)} left out (${first.reason}${others > 0 ? ` and ${String(others)} more` : ''})`);
  }
  return parts.join('; ');
}
