import { randomUUID } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApiClient } from '../../modules/identity/index.js';
import { insertCampaign } from '../campaigns.js';
import { addConversation, addMessage } from '../conversations.js';
import { testDatabaseKinds } from '../databases.js';
import { startIssuerServer } from '../identity.js';
import { addContact, sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../sendingFixtures.js';
import type { TestServer } from '../server.js';
import { insertTemplate } from '../templates.js';
import { pngOf } from '../../modules/media/test/testImages.js';
import { documentedResponse, readContract, type ContractOperation } from './contractSamples.js';

/*
 * Every curl sample of the hosted product's REST API v1 replayed against Parley, as a team moving to it
 * would: the base URL swapped, the ids filled in with records of a fresh account, the token from
 * /oauth2/token. An answer passes when its status is a documented 2xx and its body validates against the
 * documented schema (docs/api.md, "Compatibility").
 */

const contract = readContract(new URL('./hostedApiV1.json', import.meta.url));

/**
 * Operations Parley does not answer as documented yet, and what differs. Each is replayed too and must
 * still fail: when one passes, this list is out of date and the test says so.
 */
const KNOWN_INCOMPATIBLE: Record<string, string> = {};

/**
 * Requests written here for the operations the contract gives no curl sample: what a client would send by
 * the documented request body (for tools.shareFile, a picture as its first documented type,
 * application/octet-stream). Made in beforeAll; every operation without a sample must have one.
 */
const WRITTEN_SAMPLES: Record<string, () => Promise<{ headers: Record<string, string>; body: Buffer }>> = {
  'tools.shareFile': async () => ({ headers: { 'content-type': 'application/octet-stream' }, body: await pngOf(64, 48) }),
};

interface Answer {
  status: number;
  body: unknown;
  /** Why the answer is not the documented one, or null when it is. */
  mismatch: string | null;
}

const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
const validators = new Map<object, ValidateFunction>();

/** The documented schema, its `#/components/...` references resolved inside the contract. */
function validatorOf(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: contract.document.components });
    validators.set(schema, validate);
  }
  return validate;
}

/** JSON when the body is JSON, else its text (null when empty). */
function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function judge(operation: ContractOperation, status: number, body: unknown): string | null {
  const documented = documentedResponse(operation, status);
  if (documented === null || status >= 300) return `status ${String(status)}: ${JSON.stringify(body).slice(0, 300)}`;
  if (documented.schema === null) return null;
  const validate = validatorOf(documented.schema);
  if (validate(body)) return null;
  return `body does not match the documented schema: ${ajv.errorsText(validate.errors)}`;
}

describe.each(testDatabaseKinds)('the hosted product REST API v1, every curl sample replayed (%s)', (kind) => {
  let server: TestServer;
  let account: SendingAccount;
  let token = '';
  const client = { clientId: randomUUID(), secret: `${randomUUID()}${randomUUID()}` };
  const ids: Record<string, string> = {};
  const written: Record<string, { headers: Record<string, string>; body: Buffer }> = {};

  beforeAll(async () => {
    server = await startIssuerServer(kind);
    const db = server.database.db;
    account = await sendingAccount(db, { balance: '20' });
    await registerApiClient(db, { ...client, accountId: account.accountId });
    const conversation = await addConversation(db, account, { firstName: 'Chris' });
    const message = await addMessage(db, account, conversation);
    Object.assign(ids, {
      ACCOUNT_ID: account.accountId,
      CONTACT_ID: (await addContact(db, account.accountId, { firstName: 'Joe' })).id,
      TEMPLATE_ID: (await insertTemplate(db, account.accountId)).id,
      CAMPAIGN_ID: (await insertCampaign(db, account.accountId, account.numberId)).id,
      CONVERSATION_ID: conversation.id,
      MESSAGE_ID: message.id,
      'URL_ENCODED CALLBACK_URL': encodeURIComponent('https://requestbin.io'),
    });
    for (const [operationId, make] of Object.entries(WRITTEN_SAMPLES)) written[operationId] = await make();
  });
  afterAll(async () => {
    await server.stop();
  });

  /** Replays one operation's sample: the documented method and path, the sample's headers and body. */
  async function replay(operation: ContractOperation): Promise<Answer> {
    const sample = operation.sample;
    const path = operation.path.replace(/\{(\w+)\}/g, (_all, name: string) => {
      const key = name.replace(/Id$/, '_ID').toUpperCase().replace(/^URL$/, 'URL_ENCODED CALLBACK_URL');
      const value = ids[key];
      if (value === undefined) throw new Error(`no value for {${name}} in ${operation.path}`);
      return value;
    });
    const own = written[operation.operationId];
    const headers: Record<string, string> = { ...(sample?.headers ?? own?.headers ?? {}) };
    if (operation.operationId !== 'auth.token') headers.authorization = `Bearer ${token}`;
    // The samples' number (+1234567890) is no one's: a real client texts a real one.
    const body =
      own?.body ??
      sample?.body?.replaceAll('+1234567890', uniqueSendingTestNumber()).replace(/\{\{([A-Z_ ]+)\}\}/g, (all, name: string) => ids[name] ?? all);
    const hasBody = body !== undefined && operation.method !== 'GET';
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: operation.method,
      headers,
      ...(hasBody ? { body } : {}),
    });
    const parsed = parseBody(await response.text());
    return { status: response.status, body: parsed, mismatch: judge(operation, response.status, parsed) };
  }

  const ordered = (): ContractOperation[] => {
    // Reads and writes first, removals last, so each id still names a record when its call comes.
    const rank = (op: ContractOperation) => (op.operationId === 'auth.token' ? 0 : op.method === 'DELETE' ? 2 : 1);
    return [...contract.operations].sort((a, b) => rank(a) - rank(b));
  };

  it('answers /oauth2/token as documented and its token works for the rest', async () => {
    const operation = contract.operations.find((op) => op.operationId === 'auth.token');
    if (!operation?.sample?.body) throw new Error('the contract has no token sample');
    operation.sample.body = JSON.stringify({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret });
    const answer = await replay(operation);
    expect(answer.mismatch).toBeNull();
    token = (answer.body as { access_token: string }).access_token;
    expect(token).not.toBe('');
  });

  it('answers every other documented operation as documented, except the known incompatible ones', async () => {
    expect(token, 'the token test runs first').not.toBe('');
    const results: { operationId: string; mismatch: string | null }[] = [];
    for (const operation of ordered()) {
      if (operation.operationId === 'auth.token') continue;
      const answer = await replay(operation);
      results.push({ operationId: operation.operationId, mismatch: answer.mismatch });
    }
    const unexpected = results.filter((r) => !(r.operationId in KNOWN_INCOMPATIBLE) && r.mismatch !== null);
    expect(unexpected, 'operations that should answer as documented').toEqual([]);
    const nowCompatible = results.filter((r) => r.operationId in KNOWN_INCOMPATIBLE && r.mismatch === null).map((r) => r.operationId);
    expect(nowCompatible, 'answer as documented now: remove them from KNOWN_INCOMPATIBLE').toEqual([]);
    expect(results.map((r) => r.operationId).sort()).toEqual(
      contract.operations.map((op) => op.operationId).filter((id) => id !== 'auth.token').sort(),
    );
    const unsampled = contract.operations.filter((op) => op.sample === null).map((op) => op.operationId);
    expect(unsampled.sort(), 'operations with no curl sample need one in WRITTEN_SAMPLES').toEqual(Object.keys(WRITTEN_SAMPLES).sort());
  });

  it('imports the documented CSV example of POST .../contacts in one call, as documented (text/csv has no curl sample)', async () => {
    expect(token, 'the token test runs first').not.toBe('');
    const operation = contract.operations.find((op) => op.operationId === 'contacts.create');
    const example = operation?.bodyExamples['text/csv'];
    if (!operation || typeof example !== 'string') throw new Error('the contract has no CSV example for contacts.create');
    // The example lost the line break between its header and its one row ("...,ZipCode US,Joe,..."): put it back.
    const csv = example.replace('ZipCode US,', 'ZipCode\nUS,');
    const response = await fetch(`${server.baseUrl}/v1/accounts/${account.accountId}/contacts?mergeStrategy=append`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csv,
    });
    const body = parseBody(await response.text());
    expect(judge(operation, response.status, body)).toBeNull();
    expect(body).toMatchObject({ success: true, data: { submitted: 1, success: 1, inserted: 1, updated: 0, errors: [] } });
  });
});
