import type autocannon from 'autocannon';
import type { ApiFixture } from './apiSeed.js';

/*
 * What each of the 50 connections asks, in turn, as one API client with its own token: ten requests a round,
 * the order rotated per connection so they do not all list at once. Lists are the hosted product's first
 * pages (contacts 10, conversations 25), deeper pages by offset and by cursor; reads pick a seeded contact or
 * open conversation at random; a send texts the contact of an open conversation, as a reply from an
 * integration does.
 */

export const REQUEST_KINDS = ['listContacts', 'listConversations', 'readContact', 'readConversation', 'send'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

const TEMPLATE = 'Hi {{{firstName}}}, your order has shipped and should arrive on Thursday. Reply STOP to opt out.';

interface Step {
  readonly kind: RequestKind;
  /** The request, built anew each round: ids and offsets are drawn then. */
  build(connection: ConnectionState): { method: 'GET' | 'POST'; path: string; body?: string };
}

interface ConnectionState {
  /** The contacts list's cursor from this connection's last first page (`pagination.next`). */
  cursor: string | undefined;
  /** The step whose answer is awaited. */
  current: RequestKind;
}

const pick = <T>(items: readonly T[]): T => {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
};

function steps(f: ApiFixture): Step[] {
  const base = `/v1/accounts/${f.accountId}`;
  const listContacts: Step = { kind: 'listContacts', build: () => ({ method: 'GET', path: `${base}/contacts?limit=10` }) };
  const readContact: Step = { kind: 'readContact', build: () => ({ method: 'GET', path: `${base}/contacts/${pick(f.contactIds)}` }) };
  const readConversation: Step = {
    kind: 'readConversation',
    build: () => ({ method: 'GET', path: `${base}/conversations/${pick(f.openConversations).id}` }),
  };
  return [
    listContacts,
    readContact,
    { kind: 'listConversations', build: () => ({ method: 'GET', path: `${base}/conversations?limit=25` }) },
    readConversation,
    {
      kind: 'listContacts',
      build: (c) => ({ method: 'GET', path: `${base}/contacts?limit=10${c.cursor === undefined ? '' : `&after=${encodeURIComponent(c.cursor)}`}` }),
    },
    {
      kind: 'send',
      build: () => ({ method: 'POST', path: `${base}/messages`, body: JSON.stringify({ contacts: [{ id: pick(f.openConversations).contactId }], template: TEMPLATE }) }),
    },
    readContact,
    { kind: 'listContacts', build: () => ({ method: 'GET', path: `${base}/contacts?limit=10&offset=${String(10 * (1 + Math.floor(Math.random() * 99)))}` }) },
    readConversation,
    {
      kind: 'listConversations',
      build: () => ({ method: 'GET', path: `${base}/conversations?limit=25&offset=${String(25 * (1 + Math.floor(Math.random() * 19)))}` }),
    },
  ];
}

/** Per kind: the answers' times (ms) and statuses, as the connections saw them. */
export class KindSamples {
  readonly durations = new Map<RequestKind, number[]>(REQUEST_KINDS.map((k) => [k, []]));
  readonly failures = new Map<RequestKind, Map<number, number>>(REQUEST_KINDS.map((k) => [k, new Map()]));
  /** The first few bodies of answers that were not 2xx, to say why. */
  readonly failureBodies: string[] = [];

  record(kind: RequestKind, status: number, durationMs: number): void {
    if (status >= 200 && status < 300) {
      this.durations.get(kind)?.push(durationMs);
      return;
    }
    const byStatus = this.failures.get(kind);
    byStatus?.set(status, (byStatus.get(status) ?? 0) + 1);
  }

  summary(): Record<RequestKind, { answered: number; p50: number; p99: number; mean: number; failures: Record<string, number> }> {
    const entries = REQUEST_KINDS.map((kind) => {
      const sorted = [...(this.durations.get(kind) ?? [])].sort((a, b) => a - b);
      const at = (q: number): number => Math.round((sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0) * 10) / 10;
      const mean = sorted.reduce((sum, v) => sum + v, 0) / Math.max(1, sorted.length);
      const failures = Object.fromEntries([...(this.failures.get(kind) ?? new Map<number, number>())].map(([s, n]) => [String(s), n]));
      return [kind, { answered: sorted.length, p50: at(0.5), p99: at(0.99), mean: Math.round(mean * 10) / 10, failures }] as const;
    });
    return Object.fromEntries(entries) as Record<RequestKind, { answered: number; p50: number; p99: number; mean: number; failures: Record<string, number> }>;
  }
}

/**
 * autocannon's setupClient for the mix: connection n gets token n (of as many as there are connections) and
 * the round rotated by n; each answer's time goes to `samples` under its kind.
 */
export function mixClients(f: ApiFixture, tokens: readonly string[], samples: KindSamples): (client: autocannon.Client) => void {
  let connections = 0;
  return (client) => {
    const n = connections++;
    const token = tokens[n % tokens.length] ?? '';
    const round = steps(f);
    const rotated = [...round.slice(n % round.length), ...round.slice(0, n % round.length)];
    const state: ConnectionState = { cursor: undefined, current: 'listContacts' };
    client.setRequests(
      rotated.map((step) => ({
        setupRequest: (request) => {
          state.current = step.kind;
          const built = step.build(state);
          const headers: Record<string, string> = { ...request.headers, authorization: `Bearer ${token}` };
          if (built.body !== undefined) headers['content-type'] = 'application/json';
          return { ...request, method: built.method, path: built.path, headers, ...(built.body === undefined ? {} : { body: built.body }) };
        },
        onResponse: (status, body) => {
          if (status >= 300 && samples.failureBodies.length < 5) samples.failureBodies.push(`${String(status)} ${step.kind}: ${body.slice(0, 300)}`);
          if (step.kind === 'listContacts' && status === 200) {
            state.cursor = (JSON.parse(body) as { pagination?: { next?: string } }).pagination?.next;
          }
        },
      })),
    );
    client.on('response', (status, _bytes, durationMs) => {
      samples.record(state.current, status, durationMs);
    });
  };
}
