import { displayName, SCREENSHOT_TEXT_MAX, type Conversation, type ConversationScreenshotQuery, type Message } from '@parley/shared';
import { AppError } from '../../platform/errors.js';
import { loadConversation } from '../conversations/index.js';
import { findMessage, presentMessage, type ConversationViewer } from '../messaging/index.js';
import { firstStoredPicture, type ScreenshotDeps } from './pictures.js';
import { initialsOf, type ScreenshotMessage, type ScreenshotModel } from './screenshotModel.js';

export const SCREENSHOT_MESSAGE_NOT_FOUND = 'The message was not found in this conversation.';
/** What a message whose media cannot be drawn (not stored by the account, or not a picture) shows. */
export const PICTURE_PLACEHOLDER = '📷 Picture';

/** The contact as the header shows it: the name (or number), or masked, initials and the number's last 4 digits. */
export function contactHeader(contact: Conversation['contact'], mask: boolean): { name: string; initials: string } {
  const shown = displayName({ ...contact, mobile: contact.mobile.number }, contact.mobile.country);
  const initials = initialsOf(`${contact.firstName} ${contact.lastName}`);
  if (!mask) return { name: shown, initials };
  const digits = contact.mobile.number.replace(/\D/g, '');
  return { name: `•••• ${digits.slice(-4)}`, initials };
}

const clockFormat = (timeZone: string) => new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', hour12: true });
const dayFormat = (timeZone: string) => new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });

/** '9:41 AM' in the zone. */
const clock = (at: Date, timeZone: string): string => clockFormat(timeZone).format(at);

/** The label above the messages, as the phone writes it: 'Today 9:41 AM', or 'Tue, Dec 1, 2026 at 9:41 AM'. */
export function stampOf(at: Date, timeZone: string, now: Date): string {
  const day = dayFormat(timeZone);
  const today = day.format(at) === day.format(now);
  return today ? `Today ${clock(at, timeZone)}` : `${day.format(at)} at ${clock(at, timeZone)}`;
}

/** The messages to show, oldest first: those named (each of this conversation), else the newest `count`. */
async function chosenMessages(deps: ScreenshotDeps, accountId: string, viewer: ConversationViewer, conversation: Conversation, query: ConversationScreenshotQuery): Promise<Message[]> {
  let picked: Message[];
  if (query.messageIds.length > 0) {
    picked = [];
    for (const id of new Set(query.messageIds.map((messageId) => messageId.toLowerCase()))) {
      const row = await findMessage(deps.db, accountId, viewer, id);
      if (row?.conversationId !== conversation.id) throw new AppError(404, 'not_found', SCREENSHOT_MESSAGE_NOT_FOUND);
      picked.push(presentMessage(row));
    }
  } else {
    picked = conversation.messages?.data ?? [];
  }
  return [...picked].sort((a, b) => a.created.at.localeCompare(b.created.at) || a.id.localeCompare(b.id));
}

async function bubbleOf(deps: ScreenshotDeps, accountId: string, message: Message): Promise<ScreenshotMessage> {
  const text = message.message.trim();
  const cut = text.length > SCREENSHOT_TEXT_MAX ? `${text.slice(0, SCREENSHOT_TEXT_MAX - 1)}…` : text;
  const picture = await firstStoredPicture(deps, accountId, message.media);
  const placeholder = picture === null && cut === '' && message.media.length > 0;
  return { outgoing: message.outgoing, text: placeholder ? PICTURE_PLACEHOLDER : cut, picture };
}

/**
 * The screenshot of a real conversation (docs/tools.md): null when the viewer cannot see it (another account's,
 * a hidden group's, an unknown id), which the route answers 404.
 */
export async function conversationScreenshotModel(
  deps: ScreenshotDeps,
  accountId: string,
  viewer: ConversationViewer,
  conversationId: string,
  query: ConversationScreenshotQuery,
  now: Date = new Date(),
): Promise<ScreenshotModel | null> {
  const page = query.messageIds.length > 0 ? undefined : { offset: 0, limit: query.count };
  const conversation = await loadConversation(deps.db, accountId, viewer, conversationId, page);
  if (conversation === null) return null;
  const messages = await chosenMessages(deps, accountId, viewer, conversation, query);
  const first = messages[0];
  const last = messages.at(-1);
  const lastAt = last === undefined ? now : new Date(last.created.at);
  return {
    ...contactHeader(conversation.contact, query.mask),
    time: clock(lastAt, query.timeZone).replace(/\s?[AP]M$/, ''),
    stamp: stampOf(first === undefined ? now : new Date(first.created.at), query.timeZone, now),
    messages: await Promise.all(messages.map((message) => bubbleOf(deps, accountId, message))),
  };
}
