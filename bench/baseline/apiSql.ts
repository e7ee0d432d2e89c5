// `bench api`'s floor: a bare Fastify server answering the mix's requests with the same data statements
// Parley runs for them (written out by hand from its statement log), on the same database through the same
// driver and pool size, and nothing else: no token check, no membership lookup, no validation beyond reading
// the numbers, no presenters (rows go out as the driver returns them). A send is one transaction with the
// writes a send must make: the message, its conversation's last message, its event (with NOTIFY) and the
// debit with its ledger entry.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { databaseModules } from '../lib/serverModules.js';

const port = Number(process.env.PORT ?? '0');
const host = process.env.HOST ?? '127.0.0.1';
const databaseUrl = process.env.DATABASE_URL ?? null;
const dataDir = process.env.DATA_DIR ?? '';
const PRICE = '0.0079';

const m = await databaseModules();
// Parley's default pool (DATABASE_POOL_MAX).
const database = await m.openDatabase({ databaseUrl: databaseUrl === '' ? null : databaseUrl, dataDir, poolMax: 10 });
const pool = database.pool;

interface Connection {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  release(): void;
}
const connect = (): Promise<Connection> => (pool as unknown as { connect(): Promise<Connection> }).connect();

const query = async (text: string, values: unknown[]): Promise<Record<string, unknown>[]> => (await pool.query(text, values)).rows;
const int = (value: unknown, fallback: number): number => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : fallback);

const cursorOf = (key: string, id: string): string => Buffer.from(JSON.stringify([key, id])).toString('base64url');
const positionOf = (cursor: string): [string, string] => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];

const unread = `read_at is null and (direction = 'inbound' or status in ('failed', 'undelivered'))`;

async function listsOf(accountId: string, contactIds: string[]): Promise<Record<string, unknown>[]> {
  if (contactIds.length === 0) return [];
  return query('select * from list_members where account_id = $1 and contact_id = any($2::uuid[]) order by created_at, id', [accountId, contactIds]);
}

const conversationSelect = `
  select cv.id, cv.created_at, cv.updated_at, cv.closed_at,
         c.id as contact_id, c.first_name, c.last_name, c.mobile_number, c.mobile_country, c.blocked_at, c.opted_out_at,
         p.id as phone_number_id, p.number, g.id as group_id, g.name as group_name,
         lm.id as last_id, lm.body as last_body, lm.template_id as last_template_id, lm.status as last_status,
         lm.error_code as last_error_code, lm.error_description as last_error_description, lm.direction as last_direction,
         lm.media as last_media, lm.created_at as last_created_at
    from conversations cv
    join contacts c on c.id = cv.contact_id
    left join phone_numbers p on p.id = cv.phone_number_id
    left join groups g on g.id = cv.group_id
    left join messages lm on lm.id = cv.last_message_id`;

async function unreadOf(accountId: string, conversationIds: string[]): Promise<Record<string, unknown>[]> {
  if (conversationIds.length === 0) return [];
  return query(
    `select conversation_id, id from messages where account_id = $1 and conversation_id = any($2::uuid[]) and ${unread} order by created_at, id`,
    [accountId, conversationIds],
  );
}

const app = Fastify({ logger: false });
app.get('/healthz', () => ({ status: 'ok' }));

app.get<{ Params: { acc: string }; Querystring: Record<string, string> }>('/v1/accounts/:acc/contacts', async (request) => {
  const { acc } = request.params;
  const limit = int(request.query.limit, 10);
  const offset = int(request.query.offset, 0);
  const after = request.query.after === undefined ? null : positionOf(request.query.after);
  const [total] = await query('select coalesce(sum(n), 0)::int as n from account_row_counts where account_id = $1 and kind = $2', [acc, 'contacts']);
  const rows =
    after === null
      ? await query(
          'select *, created_at::text as sort_text from contacts where account_id = $1 order by created_at desc, id desc limit $2 offset $3',
          [acc, limit, offset],
        )
      : await query(
          `select *, created_at::text as sort_text from contacts where account_id = $1 and (created_at, id) < ($2::timestamptz, $3::uuid)
            order by created_at desc, id desc limit $4`,
          [acc, after[0], after[1], limit],
        );
  const lists = await listsOf(acc, rows.map((r) => String(r.id)));
  const last = rows.at(-1);
  const next = last === undefined || rows.length < limit ? undefined : cursorOf(String(last.sort_text), String(last.id));
  return { data: rows, lists, pagination: { totalCount: total?.n, offset, limit, next } };
});

app.get<{ Params: { acc: string; id: string } }>('/v1/accounts/:acc/contacts/:id', async (request, reply) => {
  const { acc, id } = request.params;
  const [row] = await query('select * from contacts where account_id = $1 and id = $2 limit 1', [acc, id]);
  if (row === undefined) return reply.code(404).send({ error: 'not found' });
  return { data: row, lists: await listsOf(acc, [id]) };
});

app.get<{ Params: { acc: string }; Querystring: Record<string, string> }>('/v1/accounts/:acc/conversations', async (request) => {
  const { acc } = request.params;
  const limit = int(request.query.limit, 10);
  const offset = int(request.query.offset, 0);
  const rows = await query(
    `${conversationSelect}
      where cv.account_id = $1 and cv.closed_at is null
      order by coalesce(cv.last_message_at, cv.created_at) desc, cv.id desc limit $2 offset $3`,
    [acc, limit, offset],
  );
  const [open] = await query(
    `select coalesce(sum(n * case kind when 'conversations' then 1 when 'closedConversations' then -1 end), 0)::int as n
       from account_row_counts where account_id = $1 and kind in ('conversations', 'closedConversations')`,
    [acc],
  );
  const unreadIds = await unreadOf(acc, rows.map((r) => String(r.id)));
  return { data: rows, unread: unreadIds, pagination: { totalCount: open?.n ?? 0, offset, limit } };
});

app.get<{ Params: { acc: string; id: string } }>('/v1/accounts/:acc/conversations/:id', async (request, reply) => {
  const { acc, id } = request.params;
  const [conversation] = await query(`${conversationSelect} where cv.account_id = $1 and cv.id = $2 limit 1`, [acc, id]);
  if (conversation === undefined) return reply.code(404).send({ error: 'not found' });
  const unreadIds = await unreadOf(acc, [id]);
  const [total] = await query('select count(*)::int as n from messages where account_id = $1 and conversation_id = $2', [acc, id]);
  const messages = await query(
    `select *, created_at::text as sort_text from messages where account_id = $1 and conversation_id = $2
      order by created_at desc, id desc limit 10 offset 0`,
    [acc, id],
  );
  return { data: { ...conversation, unread: unreadIds, messages, pagination: { totalCount: total?.n, offset: 0, limit: 10 } } };
});

app.post<{ Params: { acc: string }; Body: { contacts: { id: string }[]; template: string } }>('/v1/accounts/:acc/messages', async (request, reply) => {
  const { acc } = request.params;
  const contactId = request.body.contacts[0]?.id ?? '';
  const client = await connect();
  try {
    await client.query('begin');
    const [recipient] = (
      await client.query(
        `select c.id, c.first_name, c.mobile_number, cv.id as conversation_id, p.id as number_id, p.number
           from contacts c
           join conversations cv on cv.contact_id = c.id and cv.account_id = c.account_id and cv.closed_at is null
           join phone_numbers p on p.id = cv.phone_number_id and p.status = 'active'
          where c.account_id = $1 and c.id = $2 and c.blocked_at is null and c.opted_out_at is null and c.valid
          limit 1`,
        [acc, contactId],
      )
    ).rows;
    if (recipient === undefined) {
      await client.query('rollback');
      return await reply.code(404).send({ error: 'not found' });
    }
    await client.query('select a.balance, p.pricing from accounts a join plans p on p.id = a.plan_id where a.id = $1', [acc]);
    const body = request.body.template.replace('{{{firstName}}}', String(recipient.first_name));
    const id = randomUUID();
    const [message] = (
      await client.query(
        `insert into messages (id, account_id, conversation_id, contact_id, phone_number_id, direction, from_number, to_number, body, segments, price, status)
         values ($1, $2, $3, $4, $5, 'outbound', $6, $7, $8, 1, $9, 'queued') returning *`,
        [id, acc, recipient.conversation_id, recipient.id, recipient.number_id, recipient.number, recipient.mobile_number, body, PRICE],
      )
    ).rows;
    await client.query('update conversations set last_message_id = $2, last_message_at = now(), updated_at = now() where id = $1', [recipient.conversation_id, id]);
    await client.query(
      `with e as (insert into events (type, account_id, lane, data, dispatched_at) values ('messageSent', $1, 1, $2, now()) returning id)
       select pg_notify('parley_outbox', (select id::text from e))`,
      [acc, JSON.stringify({ messages: [[id, 'queued']] })],
    );
    const [account] = (await client.query('update accounts set balance = balance - $2 where id = $1 returning balance', [acc, PRICE])).rows;
    await client.query(
      `insert into account_transactions (id, account_id, kind, amount, balance_after, description) values ($1, $2, 'debit', $3, $4, $5)`,
      [randomUUID(), acc, PRICE, account?.balance, `Message to ${String(recipient.mobile_number)}`],
    );
    await client.query('commit');
    return { data: { messages: [message], invalid: [], requested: 1, valid: 1, estimatedPrice: Number(PRICE) } };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
});

await app.listen({ port, host });
process.stdout.write(`${JSON.stringify({ msg: 'baseline is ready', port })}\n`);

const stop = (): void => {
  app
    .close()
    .then(() => database.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
