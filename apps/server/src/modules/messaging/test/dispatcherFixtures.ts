import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { formatMoney, moneyToUnits, unitsToMoney } from '@parley/shared';
import type {
  AvailableNumber,
  Carrier,
  CarrierCapabilities,
  CarrierHandlers,
  CarrierName,
  OutboundMessage,
  SubmitResult,
} from '../../carriers/carrier.js';
import { createCarrierRegistry, type CarrierRegistry } from '../../carriers/registry.js';
import { creditAccount, debitAccount } from '../../billing/ledger.js';
import type { Db, Queryable } from '../../../platform/db/client.js';
import { accounts, contacts, conversations, messages, phoneNumbers, type MessageRow } from '../../../platform/db/schema/index.js';

/*
 * Test support for the messaging engine: an account with a number, a contact and a conversation, queued
 * messages charged through the ledger as the sender charges them, and a carrier that records its submits.
 */

let counter = Math.floor(Math.random() * 4_000_000);
/** A fresh, valid US number (+1 202 …), unique within the process. */
export function testNumber(): string {
  counter = (counter + 1) % 8_000_000;
  // Never 555: its 01xx lines are the simulator's inventory.
  if (Math.floor(counter / 10_000) === 355) counter += 10_000;
  const exchange = 200 + Math.floor(counter / 10_000);
  const line = String(counter % 10_000).padStart(4, '0');
  return `+1202${exchange}${line}`;
}

export interface SendingSetup {
  accountId: string;
  phoneNumberId: string;
  number: string;
  contactId: string;
  contactNumber: string;
  conversationId: string;
}

/** An account (with a balance) sending from one active number to one contact in an open conversation. */
export async function createSendingSetup(
  db: Db,
  options: {
    carrier?: CarrierName;
    messagesPerSecond?: number;
    balance?: string;
    quietHours?: { enabled: boolean; start: string; end: string };
    accountId?: string;
  } = {},
): Promise<SendingSetup> {
  let accountId = options.accountId;
  if (accountId === undefined) {
    await db.execute(sql`insert into plans (id, name, price, pricing)
      values ('test-plan', 'Test Plan', 49, '{"DEFAULT":{"sms":{"outbound":"0.0100"}}}') on conflict do nothing`);
    accountId = randomUUID();
    await db.insert(accounts).values({
      id: accountId,
      name: `Sender ${accountId.slice(0, 8)}`,
      planId: 'test-plan',
      support: { address: '1 Main St', phone: '+14155552671', email: 'support@example.test', website: 'https://example.test' },
      questionnaire: {},
      ...(options.quietHours
        ? {
            quietHoursEnabled: options.quietHours.enabled,
            quietHoursStart: options.quietHours.start,
            quietHoursEnd: options.quietHours.end,
          }
        : { quietHoursEnabled: false }),
    });
    const balance = options.balance ?? '100';
    if (moneyToUnits(balance) > 0n) {
      await db.transaction((tx) => creditAccount(tx, { accountId: accountId as string, amount: balance, description: 'Test credit' }));
    }
  }
  const phoneNumberId = uuidv7();
  const number = testNumber();
  await db.insert(phoneNumbers).values({
    id: phoneNumberId,
    accountId,
    number,
    country: 'US',
    carrier: options.carrier ?? 'simulator',
    status: 'active',
    messagesPerSecond: options.messagesPerSecond ?? 1000,
    // Open at once, whatever the test's clock says.
    nextDispatchAt: new Date(Date.now() - 60_000),
  });
  const contactId = uuidv7();
  const contactNumber = testNumber();
  await db.insert(contacts).values({ id: contactId, accountId, mobileNumber: contactNumber, mobileCountry: 'US' });
  const conversationId = uuidv7();
  await db.insert(conversations).values({ id: conversationId, accountId, contactId, phoneNumberId });
  return { accountId, phoneNumberId, number, contactId, contactNumber, conversationId };
}

/**
 * Queues `count` messages as the sender would: the ledger is debited with their price in the same
 * transaction, and they are written in one insert. Answers their ids in queue order.
 */
export async function queueTestMessages(
  db: Db,
  setup: SendingSetup,
  options: { count: number; price?: string; body?: string; timeZone?: string | null; sendAfter?: Date; approved?: boolean },
): Promise<string[]> {
  const price = formatMoney(options.price ?? '0.0100');
  const ids = Array.from({ length: options.count }, () => uuidv7());
  await db.transaction(async (tx) => {
    const total = moneyToUnits(price) * BigInt(options.count);
    if (total > 0n) {
      await debitAccount(tx, { accountId: setup.accountId, amount: unitsToMoney(total), description: `${options.count} messages` });
    }
    // Due a minute ago: a test whose clock stood still at its setup (dispatcher.test.ts) still finds them due
    // when the machine is so busy that queueing them takes seconds (a second's margin did not do, on CI).
    const base = options.sendAfter ?? new Date(Date.now() - 60_000);
    await tx.insert(messages).values(
      ids.map((id, i) => ({
        id,
        accountId: setup.accountId,
        conversationId: setup.conversationId,
        contactId: setup.contactId,
        phoneNumberId: setup.phoneNumberId,
        direction: 'outbound' as const,
        fromNumber: setup.number,
        toNumber: setup.contactNumber,
        body: options.body ?? `Message ${i + 1}`,
        segments: 1,
        price,
        status: 'queued' as const,
        // One millisecond apart, so the queue order is the order of `ids`.
        sendAfter: new Date(base.getTime() + i),
        timeZone: options.timeZone ?? null,
        approvedOutsideHoursAt: options.approved === true ? new Date() : null,
      })),
    );
  });
  return ids;
}

export async function messageRows(q: Queryable, ids: readonly string[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  const rows = await q
    .select()
    .from(messages)
    .where(sql`${messages.id} in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw new Error(`no message ${id}`);
    return row;
  });
}

export type SubmitBehaviour = (message: OutboundMessage, attempt: number) => SubmitResult | Promise<SubmitResult>;

/**
 * A carrier that records every submit (per message id, in order) and answers as `behaviour` says; by
 * default it accepts with a fresh id. Not idempotent unless told: as SMPP and Twilio, a repeated submit is a
 * second message.
 */
export class RecordingCarrier implements Carrier {
  readonly capabilities: CarrierCapabilities;
  readonly submits: OutboundMessage[] = [];
  readonly counts = new Map<string, number>();
  handlers: CarrierHandlers | null = null;
  sendMany?: (batch: readonly OutboundMessage[]) => Promise<SubmitResult[]>;

  constructor(
    readonly name: CarrierName,
    private readonly behaviour: SubmitBehaviour = () => ({ accepted: true, carrierMessageId: `c-${randomUUID()}` }),
    options: { idempotentSubmit?: boolean; batched?: boolean } = {},
  ) {
    this.capabilities = {
      sms: true,
      mms: false,
      numberInventory: false,
      maxSubmitsPerSecond: null,
      idempotentSubmit: options.idempotentSubmit ?? false,
    };
    if (options.batched === true) this.sendMany = (batch) => Promise.all(batch.map((m) => this.send(m)));
  }

  start(handlers: CarrierHandlers): Promise<void> {
    this.handlers = handlers;
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  async send(message: OutboundMessage): Promise<SubmitResult> {
    const attempt = (this.counts.get(message.id) ?? 0) + 1;
    this.counts.set(message.id, attempt);
    this.submits.push(message);
    return this.behaviour(message, attempt);
  }

  /** Ids submitted more than once. */
  duplicates(): string[] {
    return [...this.counts].filter(([, n]) => n > 1).map(([id]) => id);
  }

  availableNumbers(): Promise<AvailableNumber[]> {
    return Promise.resolve([]);
  }

  buyNumber(): Promise<{ carrierNumberId: string }> {
    return Promise.reject(new Error('no inventory'));
  }
}

/**
 * Takes a test's account out of the queue (its numbers released, what it left queued or sending failed), so
 * the dispatchers of later tests on the same database never see it. The ledger is not touched.
 */
export async function retireAccount(db: Db, accountId: string): Promise<void> {
  await db.execute(sql`update phone_numbers set status = 'released' where account_id = ${accountId}`);
  await db.execute(sql`update messages set status = 'failed', claimed_at = null
    where account_id = ${accountId} and status in ('queued', 'sending')`);
}

/** A registry holding the given adapters as the deployment's. */
export function registryOf(...carriers: Carrier[]): CarrierRegistry {
  const deployment: Partial<Record<CarrierName, () => Carrier>> = {};
  for (const carrier of carriers) deployment[carrier.name] = () => carrier;
  return createCarrierRegistry(carriers[0]?.name ?? 'simulator', { deployment });
}
