import { webPushBody, type WebPushPayload } from '@parley/shared';

/** The web app's page of a conversation (the service worker opens it on a click). */
export const conversationPath = (conversationId: string): string => `/conversations/${conversationId}`;

/** The notification of an incoming message: who wrote (name, else number) and what (cut), for the conversation. */
export function notificationFor(
  contact: { firstName: string; lastName: string; mobileNumber: string },
  message: { conversationId: string; text: string; mediaCount: number },
): WebPushPayload {
  const name = `${contact.firstName.trim()} ${contact.lastName.trim()}`.trim();
  return {
    title: name === '' ? contact.mobileNumber : name,
    body: webPushBody(message.text, message.mediaCount),
    url: conversationPath(message.conversationId),
    tag: message.conversationId,
  };
}
