import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'socket.io-client';
import type { BenchContext } from './benchmark.js';
import { freePort } from './freePort.js';

/*
 * The inbox's probe (the inbound benchmark's, and the webhooks benchmark's inbox check): a carrier's inbound
 * webhook request, signed as Twilio signs it, timed to the messageReceived event at a websocket client.
 */

export const TWILIO_AUTH_TOKEN = 'bench-twilio-auth-token';
export const TWILIO_ACCOUNT_SID = `AC${'0'.repeat(32)}`;
/** One inbound request every this many ms while probing. */
export const INBOUND_INTERVAL_MS = 50;
/** The inbox target (DESIGN.md): event p99 under this while a campaign is sending. */
export const INBOX_TARGET_P99_MS = 100;

/** A stand-in for Twilio's REST API: the deployment's Twilio adapter is configured but sends nothing here. */
export async function twilioApi(context: BenchContext): Promise<string> {
  const server = http.createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const port = await freePort('127.0.0.1');
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  context.scope.defer(() => new Promise<void>((resolve) => server.close(() => { resolve(); })));
  return `http://127.0.0.1:${String(port)}`;
}

/** The server's Twilio settings for the probe: the account, its token and the stand-in API. */
export async function twilioEnv(context: BenchContext): Promise<Record<string, string>> {
  return { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_API_BASE_URL: await twilioApi(context) };
}

/** X-Twilio-Signature: HMAC-SHA1 of the URL followed by each parameter's name and value, sorted by name. */
function twilioSignature(url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => text + key + (params[key] ?? ''), url);
  return createHmac('sha1', TWILIO_AUTH_TOKEN).update(data, 'utf8').digest('base64');
}

export interface Sample {
  /** From sending the request to the messageReceived event at the socket. */
  eventMs: number;
  /** From sending the request to the webhook's answer (the message is stored by then). */
  webhookMs: number;
  /** When the request was sent (performance.now()). */
  sentAt: number;
}

export interface Probe {
  /** Sends one inbound message and resolves once its event reached the socket. */
  send(from: string): Promise<Sample>;
}

/** Inbound messages to `twilioNumber` through the server at `url`, their events heard on `socket`. */
export function inboundProbe(url: string, twilioNumber: string, socket: Socket): Probe {
  const waiting = new Map<string, (at: number) => void>();
  socket.on('event', (event: { type: string; data: { message?: { message?: string } } }) => {
    if (event.type !== 'messageReceived') return;
    const text = event.data.message?.message ?? '';
    waiting.get(text)?.(performance.now());
  });
  const webhook = `${url}/v1/carriers/twilio/inbound`;
  return {
    async send(from) {
      const nonce = `Bench inbound ${randomUUID()}`;
      const arrived = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(nonce);
          reject(new Error(`no messageReceived event within 30 s for ${nonce}`));
        }, 30_000);
        waiting.set(nonce, (at) => {
          clearTimeout(timer);
          waiting.delete(nonce);
          resolve(at);
        });
      });
      const params = {
        MessageSid: `SM${randomBytes(16).toString('hex')}`,
        AccountSid: TWILIO_ACCOUNT_SID,
        From: from,
        To: twilioNumber,
        Body: nonce,
        NumMedia: '0',
      };
      // Awaited below; until then a timeout must not count as an unhandled rejection.
      arrived.catch(() => undefined);
      const started = performance.now();
      const response = await fetch(webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(webhook, params) },
        body: new URLSearchParams(params),
      });
      await response.arrayBuffer();
      const answered = performance.now();
      if (!response.ok) throw new Error(`the inbound webhook answered ${String(response.status)}`);
      return { eventMs: (await arrived) - started, webhookMs: answered - started, sentAt: started };
    },
  };
}

export interface Percentiles {
  samples: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

export function percentiles(samples: readonly number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  const round = (v: number): number => Math.round(v * 10) / 10;
  const mean = sorted.reduce((sum, v) => sum + v, 0) / Math.max(1, sorted.length);
  return { samples: sorted.length, p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? 0), mean: round(mean) };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Inbound probes every INBOUND_INTERVAL_MS, each from `nextFrom()`, until `until` says stop and at least
 * `minimum` went (each probe on its own, not waiting for the last).
 */
export async function probeWhile(probe: Probe, nextFrom: () => string, until: () => boolean, minimum: number): Promise<Sample[]> {
  const pending: Promise<Sample>[] = [];
  while (!until() || pending.length < minimum) {
    const sent = probe.send(nextFrom());
    // Awaited together at the end; a failure then fails the run, not the process before it.
    sent.catch(() => undefined);
    pending.push(sent);
    await sleep(INBOUND_INTERVAL_MS);
  }
  return Promise.all(pending);
}
