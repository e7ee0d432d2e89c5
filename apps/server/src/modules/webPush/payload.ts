import { displayName, webPushBody, type WebPushPayload } from '@parley/shared';

/** The web app's page of a conversation (the service worker opens it on a click). */
export const conversationPath = (conversationId: string): string => `/conversations/${conversationId}`;

/**
 * The notification of an incoming message: who wrote and what (cut), for the conversation. Who wrote is
 * named as the web app names them (the shared displayName): the name, else the number as the account's
 * country writes it.
 */
export function notificationFor(
  contact: { firstName: string; lastName: string; mobileNumber: string },
  message: { conversationId: string; text: string; mediaCount: number },
  accountCountry: string,
): WebPushPayload {
  return {
    title: displayName({ firstName: contact.firstName, lastName: contact.lastName, mobile: contact.mobileNumber }, accountCountry),
    body: webPushBody(message.text, message.mediaCount),
    url: conversationPath(message.conversationId),
    tag: message.conversationId,
  };
}
