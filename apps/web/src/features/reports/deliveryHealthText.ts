import type { DeliveryHealth, DeliveryHealthLevel } from '@parley/shared';

export const deliveryHealthLabels: Record<DeliveryHealthLevel, string> = {
  none: 'No texts sent in the last 24 hours',
  green: 'Delivery is healthy',
  amber: 'Delivery needs a look',
  red: 'Delivery has problems',
};

const percent = (rate: number): string => `${String(Math.round(rate * 1000) / 10)}%`;
const texts = (n: number): string => `${String(n)} ${n === 1 ? 'text' : 'texts'}`;

/** The figures under the level, as lines: only what there is to say. */
export function deliveryHealthLines(health: DeliveryHealth): string[] {
  const lines: string[] = [];
  if (health.outbound > 0) lines.push(`${texts(health.outbound)} sent to ${String(health.recipients)} ${health.recipients === 1 ? 'contact' : 'contacts'}`);
  if (health.deliveryRate !== null && health.errorRate !== null) {
    lines.push(`${percent(health.deliveryRate)} delivered, ${percent(health.errorRate)} with errors (of those with a final status)`);
  }
  if (health.awaiting > 0) lines.push(`${texts(health.awaiting)} waiting for the carrier's receipt`);
  if (health.heldForQuietHours > 0) lines.push(`${texts(health.heldForQuietHours)} held until the recipients' quiet hours end`);
  if (health.optOuts > 0) lines.push(`${String(health.optOuts)} ${health.optOuts === 1 ? 'contact' : 'contacts'} opted out (STOP)`);
  return lines;
}

/** A carrier error as the list shows it: its code and what the carrier said. */
export const carrierErrorText = (error: { code: string; description: string; count: number }): string =>
  `${error.code === '' ? 'No code' : `Error ${error.code}`}${error.description === '' ? '' : `: ${error.description}`} (${String(error.count)})`;
