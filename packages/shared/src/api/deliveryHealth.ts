import { z } from 'zod';

/*
 * Delivery health (docs/reports.md, "Delivery health"): how the account's texts of the last 24 hours fared,
 * from their real statuses, for the administrators' top bar.
 */

export const DELIVERY_HEALTH_WINDOW_HOURS = 24;
/** Below this many settled texts a rate says little: the level then follows whether there were errors at all. */
export const DELIVERY_HEALTH_MIN_SAMPLE = 20;
/** Error rate (of settled texts) from which the level is amber, and red. */
export const DELIVERY_HEALTH_ERROR_AMBER = 0.03;
export const DELIVERY_HEALTH_ERROR_RED = 0.1;
/** Opt-outs per recipient texted from which the level is amber, and red. */
export const DELIVERY_HEALTH_OPT_OUT_AMBER = 0.005;
export const DELIVERY_HEALTH_OPT_OUT_RED = 0.02;

export const deliveryHealthLevels = ['none', 'green', 'amber', 'red'] as const;
export type DeliveryHealthLevel = (typeof deliveryHealthLevels)[number];

export const deliveryHealthSchema = z
  .object({
    /** Start of the window (ISO). */
    since: z.string(),
    level: z.enum(deliveryHealthLevels),
    /** Outgoing texts created in the window, and where they stand now. */
    outbound: z.number().int(),
    delivered: z.number().int(),
    /** Failed or undelivered. */
    errors: z.number().int(),
    /** Handed to the carrier, no receipt yet. */
    awaiting: z.number().int(),
    /** Queued, and of those held until the recipient's quiet hours end. */
    queued: z.number().int(),
    heldForQuietHours: z.number().int(),
    /** delivered / (delivered + errors); null when none settled. */
    deliveryRate: z.number().nullable(),
    /** errors / (delivered + errors); null when none settled. */
    errorRate: z.number().nullable(),
    recipients: z.number().int(),
    /** Contacts who opted out (STOP) in the window. */
    optOuts: z.number().int(),
    /** The carriers' error codes of the window, most frequent first (at most 5). */
    carrierErrors: z.array(z.object({ code: z.string(), description: z.string(), count: z.number().int() })),
    /** The latest texts with an error (at most 5), to open their conversations. */
    recentErrors: z.array(
      z.object({
        messageId: z.uuid(),
        conversationId: z.uuid(),
        to: z.string(),
        code: z.string(),
        description: z.string(),
        at: z.string(),
      }),
    ),
  })
  .meta({ id: 'DeliveryHealth' });
export type DeliveryHealth = z.infer<typeof deliveryHealthSchema>;
export const deliveryHealthResponseSchema = z.object({ data: deliveryHealthSchema });

export interface DeliveryHealthCounts {
  delivered: number;
  errors: number;
  recipients: number;
  optOuts: number;
}

/** The level the counts give (the thresholds above); 'none' when nothing was sent or opted out. */
export function deliveryHealthLevel({ delivered, errors, recipients, optOuts }: DeliveryHealthCounts): DeliveryHealthLevel {
  const settled = delivered + errors;
  if (settled === 0 && recipients === 0 && optOuts === 0) return 'none';
  const optOutRate = recipients === 0 ? (optOuts > 0 ? 1 : 0) : optOuts / recipients;
  if (settled < DELIVERY_HEALTH_MIN_SAMPLE) {
    if (errors === 0 && optOutRate < DELIVERY_HEALTH_OPT_OUT_RED) return 'green';
    return 'amber';
  }
  const errorRate = errors / settled;
  if (errorRate >= DELIVERY_HEALTH_ERROR_RED || optOutRate >= DELIVERY_HEALTH_OPT_OUT_RED) return 'red';
  if (errorRate >= DELIVERY_HEALTH_ERROR_AMBER || optOutRate >= DELIVERY_HEALTH_OPT_OUT_AMBER) return 'amber';
  return 'green';
}
