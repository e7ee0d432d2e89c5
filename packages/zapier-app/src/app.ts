import { createRequire } from 'node:module';
import { version as platformVersion } from 'zapier-platform-core';
import { addBearerToken, authentication, failOnRefusal } from './authentication.js';
import { addToList } from './creates/addToList.js';
import { sendMessage } from './creates/sendMessage.js';
import { upsertContact } from './creates/upsertContact.js';
import { listDropdown, phoneNumberDropdown } from './triggers/dropdowns.js';
import { contactCreated, contactOptedOut, contactUpdated, messageReceived, messageStatus } from './triggers/eventTriggers.js';

/** The package's own version is the app's version on Zapier (`zapier push` refuses a version pushed before). */
const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

const byKey = <T extends { key: string }>(...items: T[]): Record<string, T> => Object.fromEntries(items.map((item) => [item.key, item]));

/** Parley's app definition for Zapier's platform (packages/zapier-app/README.md). */
export const app = {
  version,
  platformVersion,
  authentication,
  beforeRequest: [addBearerToken],
  afterResponse: [failOnRefusal],
  triggers: byKey<{ key: string }>(messageReceived, messageStatus, contactCreated, contactUpdated, contactOptedOut, listDropdown, phoneNumberDropdown),
  creates: byKey<{ key: string }>(sendMessage, upsertContact, addToList),
};
