import { randomBytes, randomUUID } from 'node:crypto';
import type { Storage } from '../lib/parley.js';
import { databaseModules, insertRows, loadModule, rowsOf, serverDist, type DatabaseModules } from '../lib/serverModules.js';

/*
 * The webhooks benchmark's account, written before the server starts: a group of simulator numbers the
 * campaigns send from, a Twilio number for the inbox probe, the campaign's contacts (each keeps one of the
 * numbers), the warm-up's, the inbox probe's customers, a balance and an API client.
 */

export const CAMPAIGN_TAG = 'bench-campaign';
export const WARM_UP_TAG = 'bench-warm-up';
const NUMBERS = 4;
export const RATE_PER_NUMBER = 2_500;
const INBOUND_CONTACTS = 500;
const PRICE = '0.0079';

interface Modules extends DatabaseModules {
  registerApiClient(db: unknown, input: { clientId: string; secret: string; accountId: string }): Promise<void>;
}

export async function modules(): Promise<Modules> {
  const apiClients = await loadModule<Pick<Modules, 'registerApiClient'>>(serverDist, 'modules', 'identity', 'issuer', 'apiClients.js');
  return { ...(await databaseModules()), ...apiClients };
}

export interface Fixture {
  accountId: string;
  clientId: string;
  secret: string;
  twilioNumber: string;
  groupId: string;
  inboundNumbers: string[];
}

const mobiles = (count: number, from: number): string[] => Array.from({ length: count }, (_, i) => `+1415${String(from + i).padStart(7, '0')}`);

export async function setUp(m: Modules, where: Storage, campaign: number, warmUp: number): Promise<Fixture> {
  const database = await m.openDatabase({ ...where, poolMax: 2 });
  try {
    await m.migrateDatabase(database);
    const accountId = randomUUID();
    const row = (table: string, columns: string[], values: unknown[]): Promise<void> => insertRows(database, table, columns, [values]);
    await row('plans', ['id', 'name', 'price', 'is_trial', 'pricing'], ['bench-plan', 'Bench', '0', false, JSON.stringify({ DEFAULT: { sms: { outbound: PRICE } } })]);
    await row('accounts', ['id', 'name', 'plan_id', 'support', 'questionnaire', 'quiet_hours_enabled', 'balance'], [accountId, 'Webhooks bench', 'bench-plan', '{}', '{}', false, '1000.0000']);
    await row('account_transactions', ['id', 'account_id', 'kind', 'amount', 'balance_after', 'description'], [randomUUID(), accountId, 'credit', '1000.0000', '1000.0000', 'Bench credit']);
    await row('simulator_settings', ['id', 'seed', 'latency_ms', 'failure_rate', 'messages_per_second'], [1, 1, 200, 0, 10_000]);
    const numberColumns = ['id', 'account_id', 'number', 'country', 'carrier', 'status', 'verified_at', 'messages_per_second'];
    const senders = Array.from({ length: NUMBERS }, (_, i) => ({ id: randomUUID(), number: `+1202555${String(100 + i).padStart(4, '0')}` }));
    await insertRows(database, 'phone_numbers', numberColumns, senders.map((n) => [n.id, accountId, n.number, 'US', 'simulator', 'active', new Date(), RATE_PER_NUMBER]));
    const groupId = randomUUID();
    await row('groups', ['id', 'account_id', 'name'], [groupId, accountId, 'Reminders']);
    await insertRows(database, 'group_phone_numbers', ['group_id', 'phone_number_id'], senders.map((n) => [groupId, n.id]));
    const twilioNumber = '+12025550190';
    await row('phone_numbers', numberColumns, [randomUUID(), accountId, twilioNumber, 'US', 'twilio', 'active', new Date(), 10]);
    const contactColumns = ['id', 'account_id', 'first_name', 'mobile_number', 'mobile_country', 'tags', 'sender_phone_number_id'];
    const contacts = (numbers: string[], name: string, tags: string[]) =>
      numbers.map((number, i) => [randomUUID(), accountId, `${name} ${String(i)}`, number, 'US', tags, (senders[i % senders.length] ?? { id: null }).id]);
    await insertRows(database, 'contacts', contactColumns, contacts(mobiles(campaign, 2_000_000), 'Contact', [CAMPAIGN_TAG]));
    await insertRows(database, 'contacts', contactColumns, contacts(mobiles(warmUp, 4_000_000), 'Early', [WARM_UP_TAG]));
    const inboundNumbers = mobiles(INBOUND_CONTACTS, 5_000_000);
    await insertRows(database, 'contacts', contactColumns, contacts(inboundNumbers, 'Customer', []).map((c) => [...c.slice(0, -1), null]));
    // What autovacuum does to tables that grew like this; without statistics the planner takes them for empty.
    await rowsOf(database, 'analyze');
    const clientId = `bench-${randomUUID()}`;
    const secret = randomBytes(32).toString('hex');
    await m.registerApiClient(database.db, { clientId, secret, accountId });
    return { accountId, clientId, secret, twilioNumber, groupId, inboundNumbers };
  } finally {
    await database.close();
  }
}
