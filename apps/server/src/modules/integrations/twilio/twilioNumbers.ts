import type { TwilioAccountNumber } from '@parley/shared';
import { addImportedNumber, connectionNumbers, refuseImport } from '../../phoneNumbers/index.js';
import { twilioWebhookUrls } from '../../carriers/index.js';
import type { PhoneNumberRow } from '../../../platform/db/schema/index.js';
import type { IntegrationDeps } from '../integrationStore.js';
import { fetchTwilioNumber, pageTwilioNumbers, pointTwilioNumber, smsCapable } from './twilioAccountApi.js';
import { credentialsOf, openTwilioConnection, viaTwilio } from './twilioCommands.js';
import { twilioFetch } from './twilioFetch.js';

/** One page of the Twilio account's numbers, each with the Parley number it was imported as on this connection. */
export async function listTwilioAccountNumbers(
  deps: IntegrationDeps,
  accountId: string,
  connectionId: string,
  cursor: string | null,
): Promise<{ data: TwilioAccountNumber[]; nextCursor: string | null }> {
  const connection = await openTwilioConnection(deps, accountId, connectionId);
  const page = await viaTwilio(() => pageTwilioNumbers(twilioFetch(deps.config), credentialsOf(deps, connection), cursor));
  const imported = new Map((await connectionNumbers(deps.db, accountId, connectionId)).map((row) => [row.carrierNumberId, row.id]));
  return {
    data: page.numbers.map((n) => ({ sid: n.sid, number: n.phone_number, friendlyName: n.friendly_name ?? '', smsEnabled: smsCapable(n), phoneNumberId: imported.get(n.sid) ?? null })),
    nextCursor: page.nextCursor,
  };
}

/**
 * Imports numbers of the Twilio account, in order: each is read from Twilio (it must be this account's),
 * checked (the plan, the number free in Parley), pointed at the connection's inbound URL, then written as an
 * active number of the connection. The first refusal stops the import; numbers imported before it stay.
 */
export async function importTwilioNumbers(
  deps: IntegrationDeps,
  input: { accountId: string; connectionId: string; sids: readonly string[]; actorUserId: string | null },
): Promise<PhoneNumberRow[]> {
  const connection = await openTwilioConnection(deps, input.accountId, input.connectionId);
  const credentials = credentialsOf(deps, connection);
  const fetch = twilioFetch(deps.config);
  const { inboundUrl, voiceUrl } = twilioWebhookUrls(deps.config.publicUrl, connection.id);
  const rows: PhoneNumberRow[] = [];
  for (const sid of new Set(input.sids)) {
    const resource = await viaTwilio(() => fetchTwilioNumber(fetch, credentials, sid));
    const number = await refuseImport(deps.db, input.accountId, resource.phone_number);
    await viaTwilio(() => pointTwilioNumber(fetch, credentials, sid, { smsUrl: inboundUrl, voiceUrl }));
    rows.push(
      await addImportedNumber(deps.db, {
        accountId: input.accountId,
        carrierSettingsId: connection.id,
        number,
        carrierNumberId: resource.sid,
        name: resource.friendly_name ?? '',
        actorUserId: input.actorUserId,
      }),
    );
  }
  return rows;
}
