import { seededRandom } from '@parley/shared';
import type { SimulatorNetworkSettings } from './settings.js';

/** What the virtual network does with the n-th message to a phone. */
export type SimulatedOutcome =
  | { kind: 'delivered'; delayMs: number }
  | { kind: 'undelivered'; delayMs: number; errorCode: string; errorText: string }
  | { kind: 'refused'; errorCode: string; errorText: string };

/** FNV-1a over the key: a 32-bit seed per (settings seed, phone, sequence) for the seeded generator. */
function keySeed(seed: number, phone: string, sequence: number): number {
  const key = `${String(seed)}|${phone}|${String(sequence)}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The outcome of the `sequence`-th message (1, 2, ...) to `phone`: it depends only on the settings and
 * these two, so a run repeats exactly under the same seed. The latency varies by ±20% around latencyMs.
 */
export function simulatedOutcome(
  settings: Pick<SimulatorNetworkSettings, 'seed' | 'latencyMs' | 'failureRate' | 'errorCodes'>,
  phone: string,
  sequence: number,
): SimulatedOutcome {
  const random = seededRandom(keySeed(settings.seed, phone, sequence));
  const fails = random();
  const pick = random();
  const jitter = random();
  const delayMs = Math.round(settings.latencyMs * (0.8 + 0.4 * jitter));
  const codes = settings.errorCodes;
  if (fails >= settings.failureRate || codes.length === 0) return { kind: 'delivered', delayMs };
  const error = codes[Math.min(codes.length - 1, Math.floor(pick * codes.length))];
  if (!error) return { kind: 'delivered', delayMs };
  return error.stage === 'submit'
    ? { kind: 'refused', errorCode: error.code, errorText: error.text }
    : { kind: 'undelivered', delayMs, errorCode: error.code, errorText: error.text };
}
