import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { seededRandom } from '@parley/shared';
import type { Benchmark } from '../lib/benchmark.js';
import { ratio } from '../lib/load.js';
import { repoRoot } from '../lib/paths.js';

/*
 * Segment counting: 100,000 realistic message bodies (mostly GSM-7, some smart-encodable punctuation,
 * some UCS-2: emoji, Cyrillic, CJK, accents outside GSM-7) through countSegments of the built shared
 * package, beside sms-segments-calculator alone (the reference, smart encoding on) over the same bodies,
 * in this process, one after the other. No server and no database: the runner's --database is ignored.
 */

const MESSAGES = 100_000;
const WARMUP_MESSAGES = 5_000;
const SEED = 20261121;

const sharedDir = path.join(repoRoot, 'packages', 'shared');

interface Count {
  readonly encoding: string;
  readonly segments: number;
}
interface SharedModule {
  countSegments(text: string): Count;
  countFast(text: string): Count | null;
}
interface LibraryModule {
  SegmentedMessage: new (
    text: string,
    encoding: 'auto',
    smartEncoding: boolean,
  ) => { readonly encodingName: string; readonly segmentsCount: number };
}

async function load<T>(file: string): Promise<T> {
  return (await import(pathToFileURL(file).href)) as T;
}

// Mostly GSM-7 names (é, ø, ß are GSM-7), a few that are not (í, ë, Ł).
const NAMES = [
  'Anna', 'James', 'Chloé', 'Oliver', 'Søren', 'Noah', 'Ließchen', 'Mohammed', 'Ines', 'Emma', 'Liam', 'Sophia',
  'Lucas', 'Mia', 'Ethan', 'Olivia', 'Jack', 'Isla', 'Harper', 'Mason', 'María', 'Zoë', 'Łukasz',
];
const BUSINESSES = ['Harbor Dental', 'Main St. Auto', 'Bella’s Salon', 'Green Leaf Café', 'Riverside Vet'];
const OPENINGS = ['Hi {name},', 'Hello {name}!', 'Dear {name},', '{name},', 'Hey {name} -'];
const BODIES = [
  'your appointment at {business} is tomorrow at {time}. Reply C to confirm or R to reschedule.',
  'this is a reminder from {business}: your order #{number} is ready for pick-up until {time}.',
  '{business} here. Our spring sale starts today: 20% off everything in store & online with code SPRING20.',
  'thanks for visiting {business}! We’d love your feedback: https://example.com/r/{number}',
  'your balance at {business} is $42.50. Pay online at https://pay.example.com/{number} or call (555) 010-{number}.',
  'we’re closed on Monday for the holiday — see you Tuesday from {time}. Questions? Just reply to this text.',
  '{business}: your table for 4 is booked for {time}. Running late? Let us know; we hold tables for 15 minutes. '
    + 'Parking is free after 6pm in the lot behind the building, entrance on Elm Street.',
  'the results of your test are in. Please call {business} at your convenience during office hours (9-5, Mon-Fri) '
    + 'to discuss them with the doctor. For urgent matters call 911. Do not reply to this message with personal '
    + 'health information.',
];
const CLOSINGS = [
  '', '', ' Text STOP to opt out.', ' Reply STOP to unsubscribe.', ' Thanks!', ' See you soon!', ' Have a great day.',
  ' – The team', '', ' See you soon 😊',
];
const FOREIGN = [
  'Здравствуйте, {name}! Ваша запись на {time} подтверждена.',
  '{name}様、{time}のご予約を承りました。',
  '{name}, 您的预约时间是{time}。',
  'Olá {name}, sua consulta está confirmada para às {time}. Até já!',
  'Cześć {name}, przypominamy o wizycie o {time}. Dziękujemy!',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('empty choice');
  return item;
}

function fill(template: string, random: () => number): string {
  return template
    .replaceAll('{name}', pick(random, NAMES))
    .replaceAll('{business}', pick(random, BUSINESSES))
    .replaceAll('{time}', `${String(8 + Math.floor(random() * 10))}:${random() < 0.5 ? '00' : '30'}`)
    .replaceAll('{number}', String(1000 + Math.floor(random() * 9000)));
}

function messages(count: number, random: () => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const template =
      random() < 0.04
        ? pick(random, FOREIGN)
        : `${pick(random, OPENINGS)} ${pick(random, BODIES)}${pick(random, CLOSINGS)}`;
    out.push(fill(template, random));
  }
  return out;
}

interface Figures {
  readonly messagesPerSecond: number;
  readonly microsPerMessage: number;
  readonly elapsedMs: number;
  readonly segments: number;
}

function measure(bodies: readonly string[], count: (text: string) => number): Figures {
  let segments = 0;
  const startedAt = performance.now();
  for (const body of bodies) segments += count(body);
  const elapsedMs = performance.now() - startedAt;
  return {
    messagesPerSecond: Math.round(bodies.length / (elapsedMs / 1000)),
    microsPerMessage: Math.round(((elapsedMs * 1000) / bodies.length) * 100) / 100,
    elapsedMs: Math.round(elapsedMs),
    segments,
  };
}

export const segmentsBenchmark: Benchmark = {
  description: 'countSegments over 100,000 realistic messages beside sms-segments-calculator alone (no server)',
  async run(context) {
    const shared = await load<SharedModule>(path.join(sharedDir, 'dist', 'index.js'));
    // The library as the shared package resolves it (it is that package's dependency).
    const libraryEntry = createRequire(path.join(sharedDir, 'package.json')).resolve('sms-segments-calculator');
    const { SegmentedMessage } = await load<LibraryModule>(libraryEntry);

    const random = seededRandom(SEED);
    const bodies = messages(MESSAGES, random);
    const warmup = messages(WARMUP_MESSAGES, random);
    const fastPath = bodies.filter((body) => shared.countFast(body) !== null).length;
    let disagreements = 0;
    for (const body of bodies.slice(0, 10_000)) {
      const ours = shared.countSegments(body);
      const theirs = new SegmentedMessage(body, 'auto', true);
      if (ours.segments !== theirs.segmentsCount || ours.encoding !== theirs.encodingName) disagreements++;
    }

    const library = (text: string): number => new SegmentedMessage(text, 'auto', true).segmentsCount;
    const ours = (text: string): number => shared.countSegments(text).segments;
    context.log(`warming up on ${WARMUP_MESSAGES} messages`);
    measure(warmup, library);
    measure(warmup, ours);
    context.log(`measuring the library alone on ${MESSAGES} messages`);
    const baseline = measure(bodies, library);
    context.log(`measuring countSegments on ${MESSAGES} messages`);
    const measured = measure(bodies, ours);
    if (measured.segments !== baseline.segments) {
      context.log(`warning: segment totals differ (${measured.segments} vs ${baseline.segments})`);
    }
    return {
      parameters: {
        messages: MESSAGES,
        warmupMessages: WARMUP_MESSAGES,
        seed: SEED,
        fastPathShare: Math.round((fastPath / MESSAGES) * 1000) / 1000,
        averageLength: Math.round(bodies.reduce((sum, body) => sum + body.length, 0) / MESSAGES),
        disagreementsInFirst10000: disagreements,
      },
      measured,
      baseline,
      ratios: { throughput: ratio(measured.messagesPerSecond, baseline.messagesPerSecond) },
    };
  },
};
