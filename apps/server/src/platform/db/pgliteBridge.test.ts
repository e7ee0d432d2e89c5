import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PgliteBridge } from './pgliteBridge.js';

const bridges: PgliteBridge[] = [];
afterEach(async () => {
  for (const bridge of bridges.splice(0)) await bridge.close();
});

async function start(): Promise<PgliteBridge> {
  const bridge = await PgliteBridge.start({ pgDataDir: null, template: null, settings: [] });
  bridges.push(bridge);
  return bridge;
}

async function connect(bridge: PgliteBridge): Promise<pg.Client> {
  const client = new pg.Client({ user: 'postgres', database: 'postgres', stream: () => bridge.connection() });
  await client.connect();
  return client;
}

describe('the database thread', () => {
  it('answers node-postgres over its protocol: parameters, types, errors and NOTIFY', async () => {
    const client = await connect(await start());
    const heard: string[] = [];
    client.on('notification', (n) => heard.push(n.payload ?? ''));
    const { rows } = await client.query<{ n: number; t: string; at: Date }>(
      `select $1::int + 1 as n, $2::text as t, '2030-01-01T00:00:00Z'::timestamptz as at`,
      [41, 'é ✓'],
    );
    expect(rows).toEqual([{ n: 42, t: 'é ✓', at: new Date('2030-01-01T00:00:00Z') }]);
    await expect(client.query('select 1/0')).rejects.toThrow(/division by zero/);
    await client.query('listen ch');
    await client.query(`select pg_notify('ch', 'hello')`);
    expect(heard).toEqual(['hello']);
    // A large answer arrives whole.
    const big = await client.query<{ n: number }>('select g as n from generate_series(1, 50000) g');
    expect(big.rows).toHaveLength(50000);
    expect(big.rows.at(-1)).toEqual({ n: 50000 });
    await client.end();
  });

  it('rolls back what a connection left open when it ends, and serves the next connection', async () => {
    const bridge = await start();
    const first = await connect(bridge);
    await first.query('create table t (n int)');
    await first.query('begin');
    await first.query('insert into t values (1)');
    await first.end();
    const second = await connect(bridge);
    expect((await second.query<{ count: string }>('select count(*) from t')).rows[0]?.count).toBe('0');
    await second.end();
  });

  it('gives a dump that a new in-memory database starts from', async () => {
    const bridge = await start();
    const client = await connect(bridge);
    await client.query('create table kept (n int)');
    await client.query('insert into kept values (3)');
    await client.end();
    const copy = await PgliteBridge.start({ pgDataDir: null, template: await bridge.dump(), settings: [] });
    bridges.push(copy);
    const reader = await connect(copy);
    expect((await reader.query<{ n: number }>('select n from kept')).rows).toEqual([{ n: 3 }]);
    await reader.end();
  });

  it('fails connections once closed instead of hanging', async () => {
    const bridge = await PgliteBridge.start({ pgDataDir: null, template: null, settings: [] });
    await bridge.close();
    const client = new pg.Client({ user: 'postgres', database: 'postgres', stream: () => bridge.connection() });
    await expect(client.connect()).rejects.toThrow(/closed/);
  });

  it('says why when the database cannot start', async () => {
    await expect(PgliteBridge.start({ pgDataDir: null, template: null, settings: ['-c', 'no_such_setting=1'] })).rejects.toThrow();
  });
});
