import { randomBytes, randomUUID } from 'node:crypto';
import type { BenchContext } from '../lib/benchmark.js';
import type { Storage } from '../lib/parley.js';
import { databaseModules, insertRows, loadModule, rowsOf, serverDist, type BenchDatabase, type DatabaseModules } from '../lib/serverModules.js';

/*
 * The account `bench api` loads: a realistic one, written with set-based INSERT … SELECT statements before
 * the server starts (a few seconds on PostgreSQL for a million messages): contacts with names, e-mails, tags,
 * attributes and list memberships, created over 400 days; conversations on four simulator numbers, one in
 * ten closed; messages over each conversation's life, a third incoming, some undelivered, a few unread; then
 * VACUUM ANALYZE, as autovacuum leaves a table that grew like this.
 */

export interface Scale {
  readonly contacts: number;
  readonly conversations: number;
  readonly messages: number;
}

export const FULL_SCALE: Scale = { contacts: 100_000, conversations: 10_000, messages: 1_000_000 };

export const NUMBERS = 4;
export const API_CLIENTS = 50;
export const PRICE = '0.0079';
const CREDIT = '100000.0000';
const LISTS = 3;

export interface ApiClient {
  readonly clientId: string;
  readonly secret: string;
}

export interface ApiFixture {
  readonly accountId: string;
  readonly clients: readonly ApiClient[];
  /** Open conversations with their contact: what sends and conversation reads pick from. */
  readonly openConversations: readonly { id: string; contactId: string }[];
  /** A sample of every contact, for contact reads. */
  readonly contactIds: readonly string[];
  readonly seedSeconds: number;
}

interface Modules extends DatabaseModules {
  registerApiClient(db: unknown, input: { clientId: string; secret: string; accountId: string }): Promise<void>;
}

async function modules(): Promise<Modules> {
  const apiClients = await loadModule<Pick<Modules, 'registerApiClient'>>(serverDist, 'modules', 'identity', 'issuer', 'apiClients.js');
  return { ...(await databaseModules()), ...apiClients };
}

/** A UUIDv7 made in SQL from a timestamptz expression and a text to hash (ids sort by time, as Parley's do). */
const uuidV7 = (at: string, seed: string): string =>
  `(lpad(to_hex((extract(epoch from ${at}) * 1000)::bigint), 12, '0') || '7' || substr(md5(${seed}), 1, 3) || '8' || substr(md5(${seed}), 4, 15))::uuid`;

const textArray = (values: readonly string[]): string => `array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')}]`;

const FIRST_NAMES = ['Ava', 'Liam', 'Olivia', 'Noah', 'Emma', 'Mateo', 'Sofía', 'Lucas', 'Mia', 'Ethan', 'Chloé', 'Amir', 'Hannah', 'Kenji', 'Zoe', 'Omar', 'Grace', 'Ivan', 'Nora', 'Leo'];
const LAST_NAMES = ['Smith', 'Johnson', 'Garcia', 'Brown', 'Miller', 'Davis', 'Martínez', 'Lopez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', "O'Brien", 'Harris', 'Clark', 'Lewis', 'Nguyen', 'Walker', 'Hall', 'Young', 'King'];
const CITIES = ['Austin', 'Boston', 'Chicago', 'Denver', 'Seattle', 'Miami'];
const BODIES = [
  'Hi, is my appointment still on for tomorrow at 10?',
  'Your order #48213 has shipped and should arrive on Thursday. Reply STOP to opt out.',
  'Thanks! See you then.',
  'Reminder: your table for 4 at Harbor Bistro is booked for 7:30 pm tonight. Reply C to confirm or R to reschedule.',
  'Can I move it to Friday afternoon instead?',
  'Sure, Friday at 3 pm works. We have updated your booking.',
  'Hello! Our spring sale starts today: 20% off everything in store and online until Sunday. Show this text at the till.',
  'ok',
];

async function seedContacts(database: BenchDatabase, accountId: string, scale: Scale, numberIds: readonly string[]): Promise<void> {
  const every = Math.max(1, Math.floor(scale.contacts / scale.conversations));
  // Contact i was created (400 days ago … now); every `every`-th has talked to one of the numbers and keeps it.
  await rowsOf(
    database,
    `insert into contacts (id, account_id, first_name, last_name, mobile_number, mobile_country, email, tags, attributes,
                           sender_phone_number_id, created_at, updated_at)
     select ${uuidV7('t.at', "'contact' || t.i")}, $1,
            (${textArray(FIRST_NAMES)})[1 + t.i % ${FIRST_NAMES.length}],
            (${textArray(LAST_NAMES)})[1 + (t.i / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}],
            '+1415' || lpad(t.i::text, 7, '0'), 'US',
            case when t.i % 3 <> 0 then 'person' || t.i || '@example.com' end,
            case when t.i % 7 = 0 then array['vip', 'customer'] when t.i % 5 = 0 then array['customer'] else '{}'::text[] end,
            jsonb_build_object('city', (${textArray(CITIES)})[1 + t.i % ${CITIES.length}],
                               'plan', case when t.i % 2 = 0 then 'gold' else 'basic' end),
            case when t.i % ${String(every)} = 0 and t.i / ${String(every)} <= $3 then ($4::uuid[])[1 + (t.i / ${String(every)}) % ${String(NUMBERS)}] end,
            t.at, t.at
       from (select i, now() - make_interval(secs => ($2 - i) * (34560000.0 / $2)) as at
               from generate_series(1, $2::int) as i) t`,
    [accountId, scale.contacts, scale.conversations, numberIds],
  );
}

async function seedLists(database: BenchDatabase, accountId: string): Promise<void> {
  const listIds = Array.from({ length: LISTS }, () => randomUUID());
  await insertRows(
    database,
    'contact_lists',
    ['id', 'account_id', 'name'],
    listIds.map((id, i) => [id, accountId, ['Newsletter', 'Customers', 'Events'][i] ?? `List ${String(i)}`]),
  );
  // Six contacts in ten are on one list.
  await rowsOf(
    database,
    `insert into list_members (id, account_id, list_id, contact_id, status, opt_in_at, consent_source, created_at)
     select gen_random_uuid(), $1, ($2::uuid[])[1 + c.n % ${String(LISTS)}], c.id, 'optedIn', c.created_at, 'import', c.created_at
       from (select id, created_at, row_number() over (order by id) as n from contacts where account_id = $1) c
      where c.n % 10 < 6`,
    [accountId, listIds],
  );
}

async function seedConversations(database: BenchDatabase, accountId: string): Promise<void> {
  await rowsOf(
    database,
    `insert into conversations (id, account_id, contact_id, phone_number_id, closed_at, created_at, updated_at)
     select ${uuidV7("c.created_at + interval '1 hour'", "'conversation' || c.id")}, $1, c.id, c.sender_phone_number_id,
            case when c.n % 10 = 0 then now() - interval '2 days' end,
            c.created_at + interval '1 hour', c.created_at + interval '1 hour'
       from (select id, created_at, sender_phone_number_id, row_number() over (order by id) as n
               from contacts where account_id = $1 and sender_phone_number_id is not null) c`,
    [accountId],
  );
}

async function seedMessages(database: BenchDatabase, accountId: string, perConversation: number): Promise<void> {
  // Message k of a conversation falls at k / (per + 1) of its life (until now, or until it was closed);
  // every third is incoming; one outgoing in 47 was undelivered; in one conversation in five the last
  // incoming ones are unread.
  await rowsOf(
    database,
    `insert into messages (id, account_id, conversation_id, contact_id, phone_number_id, direction, from_number, to_number,
                           body, segments, price, status, carrier, carrier_message_id, error_code, error_description,
                           sent_at, status_at, read_at, created_at)
     select ${uuidV7('m.at', "m.conversation_id::text || m.k")}, $1, m.conversation_id, m.contact_id, m.phone_number_id,
            case when m.inbound then 'inbound' else 'outbound' end,
            case when m.inbound then m.mobile else m.number end,
            case when m.inbound then m.number else m.mobile end,
            m.body, case when length(m.body) > 160 then 2 else 1 end,
            case when m.inbound then 0 when length(m.body) > 160 then ${PRICE} * 2 else ${PRICE} end,
            case when m.inbound then 'received' when m.k % 47 = 0 then 'undelivered' else 'delivered' end,
            'simulator', 'SM' || md5(m.conversation_id::text || m.k),
            case when not m.inbound and m.k % 47 = 0 then '30003' end,
            case when not m.inbound and m.k % 47 = 0 then 'Unreachable destination handset' end,
            case when not m.inbound then m.at end,
            case when not m.inbound then m.at + interval '2 seconds' end,
            case when m.unread and m.inbound then null else m.at + interval '5 minutes' end,
            m.at
       from (select cv.id as conversation_id, cv.contact_id, cv.phone_number_id, c.mobile_number as mobile, p.number, k,
                    cv.created_at + (coalesce(cv.closed_at, now()) - cv.created_at) * (k::float8 / ($2 + 1)) as at,
                    k % 3 = 0 as inbound,
                    k > $2 - 3 and ('x' || substr(md5(cv.id::text), 1, 6))::bit(24)::int % 5 = 0 as unread,
                    (${textArray(BODIES)})[1 + (k + ('x' || substr(md5(cv.id::text), 7, 6))::bit(24)::int) % ${BODIES.length}] as body
               from conversations cv
               join contacts c on c.id = cv.contact_id
               join phone_numbers p on p.id = cv.phone_number_id
              cross join generate_series(1, $2::int) as k
              where cv.account_id = $1) m`,
    [accountId, perConversation],
  );
  await rowsOf(
    database,
    `update conversations cv set last_message_id = m.id, last_message_at = m.created_at, updated_at = m.created_at
       from (select distinct on (conversation_id) conversation_id, id, created_at
               from messages where account_id = $1 order by conversation_id, created_at desc, id desc) m
      where cv.id = m.conversation_id`,
    [accountId],
  );
}

/** The account, its numbers, balance, contacts, lists, conversations, messages and API clients. */
export async function seedApiAccount(storage: Storage, scale: Scale, context: BenchContext): Promise<ApiFixture> {
  const m = await modules();
  const database = await m.openDatabase({ ...storage, poolMax: 2 });
  try {
    await m.migrateDatabase(database);
    const started = performance.now();
    const accountId = randomUUID();
    const row = (table: string, columns: string[], values: unknown[]): Promise<void> => insertRows(database, table, columns, [values]);
    await row('plans', ['id', 'name', 'price', 'is_trial', 'pricing'], ['bench-plan', 'Bench', '0', false, JSON.stringify({ DEFAULT: { sms: { outbound: PRICE } } })]);
    // Quiet hours off: every send goes at once, whatever the hour of the run.
    await row('accounts', ['id', 'name', 'plan_id', 'support', 'questionnaire', 'quiet_hours_enabled', 'balance'], [accountId, 'API bench', 'bench-plan', '{}', '{}', false, CREDIT]);
    await row('account_transactions', ['id', 'account_id', 'kind', 'amount', 'balance_after', 'description'], [randomUUID(), accountId, 'credit', CREDIT, CREDIT, 'Bench credit']);
    await row('simulator_settings', ['id', 'seed', 'latency_ms', 'failure_rate', 'messages_per_second'], [1, 1, 200, 0, 10_000]);
    const numberIds = Array.from({ length: NUMBERS }, () => randomUUID());
    await insertRows(
      database,
      'phone_numbers',
      ['id', 'account_id', 'number', 'country', 'carrier', 'status', 'verified_at', 'messages_per_second'],
      numberIds.map((id, i) => [id, accountId, `+1202555${String(100 + i).padStart(4, '0')}`, 'US', 'simulator', 'active', new Date(), 500]),
    );
    context.log(`  ${scale.contacts.toLocaleString('en')} contacts`);
    await seedContacts(database, accountId, scale, numberIds);
    await seedLists(database, accountId);
    context.log(`  ${scale.conversations.toLocaleString('en')} conversations`);
    await seedConversations(database, accountId);
    context.log(`  ${scale.messages.toLocaleString('en')} messages`);
    await seedMessages(database, accountId, Math.max(1, Math.round(scale.messages / scale.conversations)));
    context.log('  vacuum analyze');
    await rowsOf(database, 'vacuum analyze');
    const clients = Array.from({ length: API_CLIENTS }, (_, i) => ({ clientId: `bench-${String(i)}-${randomUUID()}`, secret: randomBytes(32).toString('hex') }));
    for (const client of clients) await m.registerApiClient(database.db, { ...client, accountId });
    const seedSeconds = Math.round(performance.now() - started) / 1000;
    const open = await rowsOf(database, `select id::text as id, contact_id::text as contact_id from conversations where account_id = $1 and closed_at is null`, [accountId]);
    const sample = await rowsOf(database, `select id::text as id from contacts where account_id = $1 order by md5(id::text) limit 5000`, [accountId]);
    return {
      accountId,
      clients,
      openConversations: open.map((r) => ({ id: String(r.id), contactId: String(r.contact_id) })),
      contactIds: sample.map((r) => String(r.id)),
      seedSeconds,
    };
  } finally {
    await database.close();
  }
}
