import type { DecodedMessage, PDU, PduFields } from 'smpp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CarrierHandlers, InboundMessage, OutboundMessage, StatusReport } from '../carrier.js';
import { SmppBindError, SmppCarrier, type SmppCarrierOptions } from './smppCarrier.js';
import { SMSC_PASSWORD, SMSC_SYSTEM_ID, TestSmsc } from './test/testSmsc.js';
import { TEST_TLS_CERT, TEST_TLS_KEY } from './test/testTls.js';

const WAIT = { timeout: 10_000, interval: 10 };

interface Recorder extends CarrierHandlers {
  statuses: StatusReport[];
  received: InboundMessage[];
}

function recorder(): Recorder {
  const statuses: StatusReport[] = [];
  const received: InboundMessage[] = [];
  return {
    statuses,
    received,
    status: (report) => {
      statuses.push(report);
      return Promise.resolve();
    },
    statusMany: (reports) => {
      statuses.push(...reports);
      return Promise.resolve();
    },
    inbound: (message) => {
      received.push(message);
      return Promise.resolve();
    },
  };
}

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    id: 'msg_1',
    accountId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    from: '+15550001111',
    to: '+15559992222',
    text: 'Hello from Harbor Dental',
    encoding: 'GSM-7',
    segments: 1,
    media: [],
    ...overrides,
  };
}

function decoded(value: PDU['short_message']): DecodedMessage {
  if (value === undefined || typeof value === 'string' || Buffer.isBuffer(value)) throw new Error('Not decoded');
  return value;
}

function receipt(id: string, stat: string, err = '000'): PduFields {
  return {
    source_addr: '15559992222',
    destination_addr: '15550001111',
    esm_class: 0x04,
    short_message: `id:${id} sub:001 dlvr:001 submit date:2611211540 done date:2611211541 stat:${stat} err:${err} text:Hello`,
  };
}

describe('SmppCarrier', () => {
  let smsc: TestSmsc;
  let carriers: SmppCarrier[];

  beforeEach(async () => {
    smsc = await TestSmsc.start();
    carriers = [];
  });

  afterEach(async () => {
    for (const carrier of carriers) await carrier.stop();
    await smsc.close();
  });

  function carrier(options: Partial<SmppCarrierOptions> = {}): SmppCarrier {
    const created = new SmppCarrier({
      host: '127.0.0.1',
      port: smsc.port,
      systemId: SMSC_SYSTEM_ID,
      password: SMSC_PASSWORD,
      reconnectInitialSeconds: 0.05,
      reconnectMaxSeconds: 0.2,
      ...options,
    });
    carriers.push(created);
    return created;
  }

  async function started(options: Partial<SmppCarrierOptions> = {}, handlers: CarrierHandlers = recorder()): Promise<SmppCarrier> {
    const created = carrier(options);
    await created.start(handlers);
    return created;
  }

  it('binds as a transceiver with the right password and refuses a wrong one clearly', async () => {
    const good = await started();
    expect(good.bound).toBe(true);
    expect(smsc.binds).toBe(1);

    const bad = carrier({ password: 'wrong' });
    const error = await bad.start(recorder()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SmppBindError);
    expect((error as Error).message).toContain('Invalid password');
    expect((error as Error).message).toContain('0x0000000E');
    expect(bad.bound).toBe(false);
    expect(smsc.binds).toBe(1);
  });

  it('states its capabilities and has no number inventory', async () => {
    const smpp = carrier();
    expect(smpp.capabilities).toMatchObject({ sms: true, mms: false, numberInventory: false });
    await expect(smpp.availableNumbers({ country: 'US', limit: 5 })).resolves.toEqual([]);
    await expect(smpp.buyNumber('+15550001111')).rejects.toThrow(/provision the number with the carrier/);
  });

  it('submits a short GSM-7 text with data_coding 0 and asks for a receipt', async () => {
    const smpp = await started();
    const result = await smpp.send(message({ text: 'Price: 5€ {ok} @home' }));
    expect(result).toEqual({ accepted: true, carrierMessageId: 'msg-1' });
    const [pdu] = smsc.submits;
    expect(pdu?.data_coding).toBe(0);
    expect(pdu?.registered_delivery).toBe(1);
    expect(pdu?.esm_class).toBe(0);
    expect(pdu?.source_addr).toBe('15550001111');
    expect(pdu?.source_addr_ton).toBe(1);
    expect(pdu?.destination_addr).toBe('15559992222');
    expect(decoded(pdu?.short_message)).toEqual({ message: 'Price: 5€ {ok} @home' });
  });

  it('submits a UCS-2 text as big-endian UTF-16 with data_coding 8', async () => {
    const smpp = await started();
    const result = await smpp.send(message({ text: 'Привет 👋 ok', encoding: 'UCS-2', from: 'Harbor' }));
    expect(result.accepted).toBe(true);
    const [pdu] = smsc.submits;
    expect(pdu?.data_coding).toBe(8);
    expect(pdu?.source_addr).toBe('Harbor');
    expect(pdu?.source_addr_ton).toBe(5);
    expect(decoded(pdu?.short_message).message).toBe('Привет 👋 ok');
  });

  it('splits a long GSM-7 text into 153-septet parts with an 8-bit UDH, never splitting an extension character', async () => {
    const smpp = await started();
    // 152 septets, then '€' (2 septets) which does not fit the first part's last septet.
    const text = `${'a'.repeat(152)}€${'b'.repeat(20)}`;
    const result = await smpp.send(message({ text, segments: 2 }));
    expect(result).toEqual({ accepted: true, carrierMessageId: 'msg-1' });
    expect(smsc.submits).toHaveLength(2);
    const [first, second] = smsc.submits.map((pdu) => decoded(pdu.short_message));
    expect(first?.message).toBe('a'.repeat(152));
    expect(second?.message).toBe(`€${'b'.repeat(20)}`);
    const [firstHeader, secondHeader] = [first?.udh?.[0], second?.udh?.[0]];
    expect(firstHeader?.subarray(0, 2)).toEqual(Buffer.from([0x00, 0x03]));
    expect(firstHeader?.[3]).toBe(2);
    expect(firstHeader?.[4]).toBe(1);
    expect(secondHeader?.[2]).toBe(firstHeader?.[2]);
    expect(secondHeader?.[4]).toBe(2);
    for (const pdu of smsc.submits) {
      expect(pdu.esm_class).toBe(0x40);
      expect(pdu.data_coding).toBe(0);
    }

    // Exactly 153 septets with the extension character last still fits one part.
    await smpp.send(message({ text: `${'c'.repeat(151)}€${'d'.repeat(10)}`, segments: 2 }));
    const [third, fourth] = smsc.submits.slice(2).map((pdu) => decoded(pdu.short_message));
    expect(third?.message).toBe(`${'c'.repeat(151)}€`);
    expect(fourth?.message).toBe('d'.repeat(10));
    expect(third?.udh?.[0]?.[2]).not.toBe(firstHeader?.[2]);
  });

  it('splits a long UCS-2 text into 67-unit parts without splitting a surrogate pair', async () => {
    const smpp = await started();
    const text = `${'中'.repeat(66)}😀${'文'.repeat(10)}`;
    await smpp.send(message({ text, encoding: 'UCS-2', segments: 2 }));
    const parts = smsc.submits.map((pdu) => decoded(pdu.short_message).message);
    expect(parts).toEqual(['中'.repeat(66), `😀${'文'.repeat(10)}`]);
    expect(smsc.submits.every((pdu) => pdu.data_coding === 8 && pdu.esm_class === 0x40)).toBe(true);
  });

  it('refuses, without submitting, a text that splits differently from what was charged', async () => {
    const smpp = await started();
    const result = await smpp.send(message({ text: 'x'.repeat(161), segments: 1 }));
    expect(result).toMatchObject({ accepted: false, retryable: false, errorCode: 'SEGMENT_COUNT' });
    expect(smsc.submits).toHaveLength(0);
  });

  it('sends a long text in one submit with message_payload when configured', async () => {
    const smpp = await started({ useMessagePayload: true });
    const text = `${'a'.repeat(200)}[]`;
    const result = await smpp.send(message({ text, segments: 2 }));
    expect(result).toEqual({ accepted: true, carrierMessageId: 'msg-1' });
    expect(smsc.submits).toHaveLength(1);
    const [pdu] = smsc.submits;
    expect(pdu?.esm_class).toBe(0);
    expect(decoded(pdu?.short_message).message).toBe('');
    expect(decoded(pdu?.message_payload).message).toBe(text);
  });

  it('maps every part receipt back to the first part id: delivered only once all parts are', async () => {
    const handlers = recorder();
    const smpp = await started({}, handlers);
    const result = await smpp.send(message({ text: 'x'.repeat(400), segments: 3 }));
    expect(result).toEqual({ accepted: true, carrierMessageId: 'msg-1' });

    await smsc.deliver(receipt('msg-2', 'DELIVRD'));
    await smsc.deliver(receipt('msg-1', 'ENROUTE'));
    await smsc.deliver(receipt('msg-1', 'DELIVRD'));
    expect(handlers.statuses.map((report) => report.status)).toEqual(['sent']);
    const last = await smsc.deliver(receipt('msg-3', 'DELIVRD'));
    expect(last.command_status).toBe(0);
    expect(handlers.statuses).toHaveLength(2);
    expect(handlers.statuses[1]).toMatchObject({ carrierMessageId: 'msg-1', status: 'delivered', errorCode: null, errorText: null });
  });

  it('reports a multi-part message failed at the first failed part, with the err code', async () => {
    const handlers = recorder();
    const smpp = await started({}, handlers);
    await smpp.send(message({ text: 'y'.repeat(300), segments: 2 }));
    await smsc.deliver(receipt('msg-2', 'UNDELIV', '034'));
    await smsc.deliver(receipt('msg-1', 'DELIVRD'));
    expect(handlers.statuses).toEqual([
      expect.objectContaining({ carrierMessageId: 'msg-1', status: 'undelivered', errorCode: '034', errorText: 'UNDELIV' }),
    ]);
  });

  it('refuses a message whose later part is refused, ignoring receipts of the parts sent, and reports unknown ids as they are', async () => {
    const handlers = recorder();
    const smpp = await started({}, handlers);
    smsc.respond = (pdu, nextId) => (smsc.submits.indexOf(pdu) === 1 ? { command_status: 0x58 } : { message_id: nextId });
    await expect(smpp.send(message({ text: 'z'.repeat(200), segments: 2 }))).resolves.toMatchObject({
      accepted: false,
      retryable: true,
      errorCode: '0x00000058',
    });
    await smsc.deliver(receipt('msg-1', 'DELIVRD'));
    expect(handlers.statuses).toEqual([]);
    await smsc.deliver(receipt('sent-before-restart', 'EXPIRED', '00B'));
    expect(handlers.statuses).toEqual([
      expect.objectContaining({ carrierMessageId: 'sent-before-restart', status: 'failed', errorCode: '00B', errorText: 'EXPIRED' }),
    ]);
  });

  it('reads the receipted_message_id and message_state TLVs when present', async () => {
    const handlers = recorder();
    const smpp = await started({}, handlers);
    await smpp.send(message());
    await smsc.deliver({
      esm_class: 0x04,
      short_message: 'id:ignored stat:DELIVRD err:000',
      receipted_message_id: 'msg-1',
      message_state: 8,
    });
    expect(handlers.statuses).toEqual([expect.objectContaining({ carrierMessageId: 'msg-1', status: 'failed', errorText: 'REJECTD' })]);
  });

  it('takes mobile-originated messages in GSM-7 and UCS-2 and reassembles concatenated ones', async () => {
    const handlers = recorder();
    await started({}, handlers);
    await smsc.deliver({ source_addr: '15559992222', source_addr_ton: 1, destination_addr: '15550001111', dest_addr_ton: 1, data_coding: 0, short_message: 'Yes {please} €5' });
    await smsc.deliver({ source_addr: '15559992222', source_addr_ton: 1, destination_addr: '15550001111', data_coding: 8, short_message: 'Да 👍' });
    const udh = (sequence: number): Buffer => Buffer.from([0x05, 0x00, 0x03, 0x2a, 0x02, sequence]);
    const second = await smsc.deliver({ source_addr: '15559992222', source_addr_ton: 1, destination_addr: '15550001111', data_coding: 0, short_message: { udh: udh(2), message: 'part two' } });
    expect(second.command_status).toBe(0);
    expect(handlers.received).toHaveLength(2);
    await smsc.deliver({ source_addr: '15559992222', source_addr_ton: 1, destination_addr: '15550001111', data_coding: 0, short_message: { udh: udh(1), message: 'part one, ' } });

    expect(handlers.received.map((inbound) => [inbound.from, inbound.to, inbound.text])).toEqual([
      ['+15559992222', '+15550001111', 'Yes {please} €5'],
      ['+15559992222', '15550001111', 'Да 👍'],
      ['+15559992222', '15550001111', 'part one, part two'],
    ]);
    expect(new Set(handlers.received.map((inbound) => inbound.carrierMessageId)).size).toBe(3);
  });

  it('answers deliver_sm only after the handler resolved, and with ESME_RX_T_APPN when it rejects', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    let fail = false;
    const handlers = recorder();
    handlers.inbound = async () => {
      events.push('handler started');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      events.push('handler resolved');
      if (fail) throw new Error('database unavailable');
    };
    await started({}, handlers);

    const pending = smsc.deliverLater({ source_addr: '15559992222', short_message: 'hello' });
    void pending.response.then(() => events.push('deliver_sm_resp'));
    await vi.waitFor(() => {
      expect(events).toEqual(['handler started']);
    }, WAIT);
    // A round trip sent after the deliver_sm: an early answer would have arrived before this one.
    await smsc.enquireLink();
    expect(events).toEqual(['handler started']);
    release();
    const answered = await pending.response;
    expect(answered.command_status).toBe(0);
    expect(events).toEqual(['handler started', 'handler resolved', 'deliver_sm_resp']);

    fail = true;
    const refused = smsc.deliverLater({ source_addr: '15559992222', short_message: 'again' });
    await vi.waitFor(() => {
      expect(events).toHaveLength(4);
    }, WAIT);
    release();
    expect((await refused.response).command_status).toBe(0x64);
  });

  it('answers the SMSC enquire_link and sends its own on a timer', async () => {
    await started({ enquireLinkSeconds: 0.05 });
    const answer = await smsc.enquireLink();
    expect(answer.command).toBe('enquire_link_resp');
    await vi.waitFor(() => {
      expect(smsc.enquireLinksReceived).toBeGreaterThanOrEqual(2);
    }, WAIT);
  });

  it('fails in-flight submits as retryable when the SMSC drops the connection, reconnects, then submits again', async () => {
    const smpp = await started();
    smsc.respond = () => new Promise<PduFields>(() => undefined);
    const inFlight = smpp.send(message());
    await vi.waitFor(() => {
      expect(smsc.submits).toHaveLength(1);
    }, WAIT);
    smsc.dropConnections();
    await expect(inFlight).resolves.toMatchObject({ accepted: false, retryable: true, errorCode: 'CONNECTION_LOST' });

    smsc.respond = (_pdu, nextId) => ({ message_id: nextId });
    await vi.waitFor(() => {
      expect(smsc.binds).toBe(2);
      expect(smpp.bound).toBe(true);
    }, WAIT);
    await expect(smpp.send(message())).resolves.toEqual({ accepted: true, carrierMessageId: 'msg-2' });
  });

  it('reports throttling and a full queue as retryable and other errors as final, with the code in hex', async () => {
    const smpp = await started();
    smsc.respond = () => ({ command_status: 0x58 });
    await expect(smpp.send(message())).resolves.toEqual({
      accepted: false,
      retryable: true,
      errorCode: '0x00000058',
      errorText: 'Throttling error',
    });
    smsc.respond = () => ({ command_status: 0x14 });
    await expect(smpp.send(message())).resolves.toMatchObject({ retryable: true, errorCode: '0x00000014' });
    smsc.respond = () => ({ command_status: 0x0b });
    await expect(smpp.send(message())).resolves.toEqual({
      accepted: false,
      retryable: false,
      errorCode: '0x0000000B',
      errorText: 'Invalid destination address',
    });
  });

  it('keeps at most windowSize submits outstanding while the SMSC is slow', async () => {
    const smpp = await started({ windowSize: 2 });
    const held: (() => void)[] = [];
    smsc.respond = (_pdu, nextId) =>
      new Promise<PduFields>((resolve) => {
        held.push(() => {
          resolve({ message_id: nextId });
        });
      });
    const results = Promise.all(Array.from({ length: 5 }, (_, index) => smpp.send(message({ id: `m${index}` }))));
    let answered = 0;
    while (answered < 5) {
      const expected = Math.min(2, 5 - answered);
      await vi.waitFor(() => {
        expect(held).toHaveLength(expected);
      }, WAIT);
      // A round trip after the submits: a submit beyond the window would have arrived first.
      await smsc.enquireLink();
      expect(smsc.outstanding).toBe(expected);
      for (const answer of held.splice(0)) answer();
      answered += expected;
    }
    expect((await results).every((result) => result.accepted)).toBe(true);
    expect(smsc.submits).toHaveLength(5);
    expect(smsc.maxOutstanding).toBe(2);
  });

  describe('over TLS (smpps)', () => {
    let secure: TestSmsc;
    beforeEach(async () => {
      secure = await TestSmsc.start({ tls: { key: TEST_TLS_KEY, cert: TEST_TLS_CERT } });
    });
    afterEach(async () => {
      // Stopped before their SMSC goes, so they do not go on reconnecting to it.
      for (const created of carriers.splice(0)) await created.stop();
      await secure.close();
    });

    it('binds, submits and takes receipts over TLS when the certificate is trusted', async () => {
      const handlers = recorder();
      const smpp = await started({ host: '127.0.0.1', port: secure.port, tls: true, tlsCa: TEST_TLS_CERT }, handlers);
      expect(smpp.bound).toBe(true);
      expect(secure.binds).toBe(1);
      const result = await smpp.send(message());
      expect(result).toEqual({ accepted: true, carrierMessageId: 'msg-1' });
      await secure.deliver(receipt('msg-1', 'DELIVRD'));
      await vi.waitFor(() => {
        expect(handlers.statuses.map((s) => s.status)).toEqual(['delivered']);
      }, WAIT);
    });

    it('refuses an SMSC whose certificate it does not trust, before sending the password', async () => {
      const smpp = carrier({ host: '127.0.0.1', port: secure.port, tls: true });
      await expect(smpp.start(recorder())).rejects.toThrow(/self[- ]signed certificate/);
      expect(smpp.bound).toBe(false);
      expect(secure.binds).toBe(0);
    });

    it('does not speak plain SMPP to a TLS port', async () => {
      const smpp = carrier({ host: '127.0.0.1', port: secure.port });
      const outcome = await Promise.race([
        smpp.start(recorder()).then(
          () => 'bound',
          () => 'refused',
        ),
        new Promise<string>((resolve) => {
          setTimeout(() => {
            resolve('no answer');
          }, 1000);
        }),
      ]);
      expect(outcome).not.toBe('bound');
      expect(secure.binds).toBe(0);
    });
  });
});
