import { z } from 'zod';
import { callStatuses } from '@parley/shared';
import type { ProviderCall } from '../connector.js';

/*
 * Cradle's call event as Parley assumes it (docs/integrations.md, "Cradle"): `{ event: 'call.completed', call:
 * { id, direction, status, from, to, started_at, duration_seconds, recording_url, caller_name } }`, the status
 * one of Parley's own (answered, missed, voicemail, busy, failed).
 */

export const cradleEventSchema = z.object({
  event: z.string(),
  call: z.object({
    id: z.union([z.string().min(1), z.number()]).transform(String),
    direction: z.enum(['inbound', 'outbound']),
    status: z.enum(callStatuses),
    from: z.string().min(1),
    to: z.string().min(1),
    started_at: z.string(),
    duration_seconds: z.number().nonnegative().nullish(),
    recording_url: z.string().nullish(),
    caller_name: z.string().nullish(),
  }),
});
export type CradleEvent = z.infer<typeof cradleEventSchema>;

const namesOf = (name: string): { firstName: string; lastName: string } => {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { firstName: first, lastName: rest.join(' ') };
};

export function providerCallOf(c: CradleEvent['call']): ProviderCall {
  return {
    externalId: c.id,
    direction: c.direction,
    status: c.status,
    startedAt: c.started_at,
    durationSeconds: c.duration_seconds ?? 0,
    from: c.from,
    to: c.to,
    recordingUrl: c.recording_url ?? null,
    attributes: {},
    contactName: namesOf(c.caller_name ?? ''),
  };
}
