import {
  TWILIO_ACCOUNT_CONNECTED_MESSAGE,
  TWILIO_ACCOUNT_INACTIVE_MESSAGE,
  TWILIO_CREDENTIALS_REFUSED_MESSAGE,
  type CarrierConnection as CarrierConnectionRecord,
  type ConnectTwilio,
} from '@parley/shared';
import {
  cipherFor,
  createConnection,
  findConnection,
  listConnections,
  loadCarrierConnection,
  presentConnection,
  removeConnection,
  type CarrierConnection,
} from '../../carriers/index.js';
import { connectionNumbers, releaseNumbers } from '../../phoneNumbers/index.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { GuardedFetchError } from '../../../platform/net/guardedFetch.js';
import type { IntegrationDeps } from '../integrationStore.js';
import { fetchTwilioAccount, pointTwilioNumber, TwilioAccountError, type TwilioAccountCredentials } from './twilioAccountApi.js';
import { twilioFetch } from './twilioFetch.js';

/*
 * The Twilio integration page's commands (docs/integrations.md, "Twilio"): the account's own Twilio
 * connections are carrier connections (docs/carriers.md); connecting checks the SID and token with Twilio
 * first, disconnecting releases the connection's numbers (their messages stay) and removes it.
 */

const CONNECTION = 'The Twilio connection';

/** Twilio's refusal or failure as the API's answer. */
export function twilioCallError(error: unknown): unknown {
  if (error instanceof TwilioAccountError) {
    if (error.status === 401 || error.status === 403) return new AppError(400, 'bad_request', TWILIO_CREDENTIALS_REFUSED_MESSAGE);
    if (error.status === 404) return notFound('The Twilio phone number');
    if (error.status === 400) return new AppError(400, 'bad_request', error.message);
    return new AppError(502, 'internal_error', `Twilio failed: ${error.message}`);
  }
  if (error instanceof GuardedFetchError) return new AppError(502, 'internal_error', `Twilio cannot be reached: ${error.message}`);
  return error;
}

export async function viaTwilio<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw twilioCallError(error);
  }
}

export const credentialsOf = (deps: IntegrationDeps, connection: CarrierConnection): TwilioAccountCredentials => {
  if (connection.settings.carrier !== 'twilio') throw notFound(CONNECTION);
  return { apiBaseUrl: deps.config.carriers.twilioApiBaseUrl, accountSid: connection.settings.accountSid, authToken: connection.secret };
};

/** The account's Twilio connection by id, its token decrypted; 404 for another account's or an SMPP one. */
export async function openTwilioConnection(deps: IntegrationDeps, accountId: string, id: string): Promise<CarrierConnection> {
  const row = await findConnection(deps.db, accountId, id);
  if (row?.carrier !== 'twilio') throw notFound(CONNECTION);
  const connection = await loadCarrierConnection(deps.db, await cipherFor(deps.config.secrets), id);
  if (connection === null) throw notFound(CONNECTION);
  return connection;
}

/** The account's Twilio connections, oldest first (an account has a handful of connections at most). */
export async function listTwilioConnections(deps: IntegrationDeps, accountId: string): Promise<CarrierConnectionRecord[]> {
  const { rows } = await listConnections(deps.db, accountId, { offset: 0, limit: 100 });
  const twilio = rows.filter(({ row }) => row.carrier === 'twilio');
  if (twilio.length === 0) return [];
  const cipher = await cipherFor(deps.config.secrets);
  return twilio.map((connection) => presentConnection(cipher, deps.config.publicUrl, connection));
}

/** Adds the account's Twilio connection once Twilio accepts its SID and token and calls the account active. */
export async function connectTwilio(deps: IntegrationDeps, accountId: string, input: ConnectTwilio): Promise<CarrierConnectionRecord> {
  const cipher = await cipherFor(deps.config.secrets);
  const known = await listTwilioConnections(deps, accountId);
  if (known.some((c) => c.carrier === 'twilio' && c.settings.accountSid.toLowerCase() === input.settings.accountSid.toLowerCase())) {
    throw new AppError(409, 'conflict', TWILIO_ACCOUNT_CONNECTED_MESSAGE);
  }
  const credentials = { apiBaseUrl: deps.config.carriers.twilioApiBaseUrl, accountSid: input.settings.accountSid, authToken: input.secret };
  const account = await viaTwilio(() => fetchTwilioAccount(twilioFetch(deps.config), credentials));
  if (account.status !== 'active') throw new AppError(400, 'bad_request', TWILIO_ACCOUNT_INACTIVE_MESSAGE);
  const created = await createConnection(deps.db, cipher, accountId, { carrier: 'twilio', name: input.name, settings: input.settings, secret: input.secret });
  return presentConnection(cipher, deps.config.publicUrl, created);
}

/**
 * Disconnects: each number of the connection has its SMS webhook unset at Twilio (best effort: a number
 * Twilio no longer has, or a token Twilio refuses now, does not keep the connection), is released (it stops
 * sending and receiving; its messages stay), and the connection is removed.
 */
export async function disconnectTwilio(deps: IntegrationDeps, accountId: string, id: string): Promise<{ released: number; unset: number }> {
  const connection = await openTwilioConnection(deps, accountId, id);
  const credentials = credentialsOf(deps, connection);
  const numbers = await connectionNumbers(deps.db, accountId, id);
  let unset = 0;
  for (const number of numbers) {
    if (number.carrierNumberId === null) continue;
    try {
      await pointTwilioNumber(twilioFetch(deps.config), credentials, number.carrierNumberId, { smsUrl: '', voiceUrl: '' });
      unset += 1;
    } catch (error) {
      if (!(error instanceof TwilioAccountError) && !(error instanceof GuardedFetchError)) throw error;
    }
  }
  await releaseNumbers(deps.db, accountId, numbers.map((n) => n.id));
  await removeConnection(deps.db, accountId, id);
  return { released: numbers.length, unset };
}
