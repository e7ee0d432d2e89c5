import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@parley/shared';
import { SMSC_PASSWORD, SMSC_SYSTEM_ID, TestSmsc } from '../modules/carriers/smpp/test/testSmsc.js';
import { creditAccount } from '../modules/billing/ledger.js';
import { auditLog, phoneNumbers } from '../platform/db/schema/index.js';
import { devToken } from '../modules/identity/authenticator.js';
import { afterTest, cliStorage, ok, refusal, runCli, runCommand, until } from '../test/cli.js';
import { testDatabaseKinds } from '../test/databases.js';
import { uniqueTestNumber } from '../test/phoneNumbers.js';
import { spawnParley } from '../test/processes.js';

const digits = (e164: string): string => e164.slice(1);

describe.each(testDatabaseKinds)('parley add-number on an SMPP deployment (%s)', (kind) => {
  it('adds a number the SMSC then sends from and delivers to, end to end', async () => {
    const smsc = await TestSmsc.start();
    afterTest(() => smsc.close());
    const storage = await cliStorage(kind, { prefix: 'parley-cli-numbers-' });
    afterTest(storage.remove);
    const { env: where, open } = storage;
    // An SMPP deployment: the SMSC of SMPP_URL and no simulator.
    const env = { ...where, SIMULATOR: 'false', SMPP_URL: `smpp://${SMSC_SYSTEM_ID}:${SMSC_PASSWORD}@127.0.0.1:${String(smsc.port)}` };
    const { userId } = await ok<{ userId: string }>(['create-user', '--email', 'owner@acme.test', '--password', 'Str0ng-enough!', '--verified'], env);
    const { accountId } = await ok<{ accountId: string }>(['create-account', '--owner', 'owner@acme.test', '--name', 'Acme', '--plan', 'starter'], env);
    const number = uniqueTestNumber();

    // The CLI's own process: its exit code and the JSON it prints.
    const added = await ok<Record<string, unknown>>(
      ['add-number', '--account', accountId, '--number', `${number.slice(0, 2)} ${number.slice(2)}`, '--carrier', 'SMPP', '--name', 'Front desk'],
      env,
      runCli,
    );
    expect(added).toEqual({
      ok: true,
      phoneNumberId: expect.any(String) as string,
      accountId,
      number,
      country: 'US',
      type: 'longcode',
      carrier: 'smpp',
      connection: null,
      status: 'active',
      messagesPerSecond: 1,
    });

    const database = await open();
    try {
      const [row] = await database.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, String(added.phoneNumberId)));
      expect(row).toMatchObject({ accountId, number, name: 'Front desk', status: 'active', hosted: false, carrierSettingsId: null });
      expect(row?.verifiedAt).toBeInstanceOf(Date);
      const [audit] = await database.db.select().from(auditLog).where(eq(auditLog.accountId, accountId));
      expect(audit).toMatchObject({ action: 'phoneNumber.add', actorUserId: null, actorClientId: null, details: expect.objectContaining({ vouchedBy: 'operator' }) as unknown });
      // A balance to send with, through the ledger.
      await database.db.transaction((tx) => creditAccount(tx, { accountId, amount: '5', description: 'Test credit' }));
    } finally {
      await database.close();
    }

    const server = spawnParley({ ...env, DEV_AUTH: 'true' });
    afterTest(() => server.stop());
    const base = `${await server.ready()}/v1/accounts/${accountId}`;
    const headers = { authorization: `Bearer ${devToken(userId, accountId)}`, 'content-type': 'application/json' };
    const post = (rest: string, body: object) => fetch(`${base}${rest}`, { method: 'POST', headers, body: JSON.stringify(body) });

    const contactNumber = uniqueTestNumber();
    const contact = await post('/contacts', { firstName: 'Rosa', mobile: { number: contactNumber, country: 'US' } });
    expect(contact.status, await contact.clone().text()).toBe(201);
    const contactId = ((await contact.json()) as { data: { id: string }[] }).data[0]?.id;
    // sendNow: the sender confirms sending outside the recipient's acceptable hours, whenever the test runs.
    const sent = await post('/messages', { contacts: [contactId], template: 'Your glasses are ready for pick-up', sendNow: true });
    expect(sent.status, await sent.clone().text()).toBe(200);

    // The dispatcher hands it to the SMSC of SMPP_URL, from the number added.
    const submit = await until(() => smsc.submits[0] ?? null);
    expect(submit).toMatchObject({ source_addr: digits(number), source_addr_ton: 1, destination_addr: digits(contactNumber), dest_addr_ton: 1 });
    const text = submit.short_message;
    expect(typeof text === 'object' && !Buffer.isBuffer(text) ? text.message : text).toBe('Your glasses are ready for pick-up');

    // The contact answers: a deliver_sm to the number lands in the account, in the same conversation.
    const answered = await smsc.deliver({
      source_addr: digits(contactNumber),
      source_addr_ton: 1,
      destination_addr: digits(number),
      dest_addr_ton: 1,
      data_coding: 0,
      short_message: 'Great, I will come by at 5',
    });
    expect(answered.command_status).toBe(0);
    const get = async <T>(rest: string): Promise<T> => ((await (await fetch(`${base}${rest}`, { headers })).json()) as { data: T }).data;
    const [incoming] = await get<Message[]>(`/messages?incoming=true&contactId=${contactId}`);
    expect(incoming).toMatchObject({ direction: 'inbound', status: 'received', message: 'Great, I will come by at 5', phoneNumber: number });
    const conversations = await get<Conversation[]>(`/conversations?contactId=${contactId}`);
    expect(conversations).toHaveLength(1);
    expect(conversations[0]?.lastMessage).toMatchObject({ message: 'Great, I will come by at 5', outgoing: false });
  }, 180_000);

  it('answers the refusals of the command and of its arguments as the other commands do', async () => {
    const storage = await cliStorage(kind, { prefix: 'parley-cli-numbers-' });
    afterTest(storage.remove);
    const { env: where, open } = storage;
    const env = { ...where, SIMULATOR: 'false', SMPP_URL: 'smpp://parley:secret12@127.0.0.1:2775' };
    await ok(['create-user', '--email', 'a@acme.test', '--password', 'Str0ng-enough!'], env);
    // A trial account: the operator hands numbers out, whatever the plan.
    const { accountId } = await ok<{ accountId: string }>(['create-account', '--owner', 'a@acme.test', '--name', 'A'], env);
    const number = uniqueTestNumber();
    const fresh = uniqueTestNumber();
    const add = (args: string[], using: Record<string, string> = env) => runCommand(['add-number', ...args, '--json'], using);
    expect(await ok(['add-number', '--account', accountId, '--number', number, '--carrier', 'smpp'], env)).toMatchObject({ number, status: 'active' });

    const refusals: [string[], Record<string, string>, number, string, string][] = [
      [['--account', accountId, '--number', number, '--carrier', 'smpp'], env, 1, 'conflict', 'This number is already a number of this account.'],
      [['--account', randomUUID(), '--number', fresh, '--carrier', 'smpp'], env, 1, 'not_found', 'The account was not found.'],
      [['--account', accountId, '--number', fresh, '--carrier', 'smpp', '--connection', randomUUID()], env, 1, 'not_found', 'The carrier connection was not found.'],
      [
        ['--account', accountId, '--number', fresh, '--carrier', 'smpp'],
        // No SMPP_URL: the deployment has no SMPP connection of its own.
        { ...where, SIMULATOR: 'false' },
        1,
        'bad_request',
        "The smpp carrier is not configured for this deployment: set SMPP_URL, or name one of the account's own SMPP connections.",
      ],
      // Refused before the database is opened.
      [['--account', accountId, '--number', '+1 555', '--carrier', 'smpp'], env, 2, 'invalid_number', '--number: Country or Number is not valid'],
      [['--account', accountId, '--number', fresh, '--carrier', 'smpp', '--rate', 'fast'], env, 2, 'invalid_arguments', '--rate: Must be a number'],
      [['--account', 'nope', '--number', fresh, '--carrier', 'smpp'], env, 2, 'invalid_arguments', 'Give the account id: --account <uuid>.'],
      [
        ['--account', accountId, '--number', fresh, '--carrier', 'twilio'],
        env,
        2,
        'unsupported_carrier',
        'Only SMPP numbers are added by hand (--carrier smpp): simulator and Twilio numbers are bought in the app (Phone Numbers, Add).',
      ],
    ];
    for (const [args, using, code, errorCode, message] of refusals) {
      expect(refusal(await add(args, using)), args.join(' ')).toEqual({ code, error: { code: errorCode, message } });
    }
    // The CLI's own process answers a refusal as the command line does: its exit code, the JSON it prints.
    expect(refusal(await runCli(['add-number', '--account', accountId, '--number', number, '--carrier', 'smpp', '--json'], env))).toEqual({
      code: 1,
      error: { code: 'conflict', message: 'This number is already a number of this account.' },
    });
    const missing = await runCli(['add-number', '--account', accountId, '--number', fresh], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--carrier is required.');

    const check = await open();
    try {
      expect(await check.db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(eq(phoneNumbers.number, fresh))).toEqual([]);
    } finally {
      await check.close();
    }
  }, 180_000);
});
