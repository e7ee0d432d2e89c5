import type { SimulatorMessage, SimulatorPhone, SimulatorSettings } from '@parley/shared';
import { normaliseContactMobile } from '@parley/shared';
import type { SimulatorMessageRow } from '../../platform/db/schema/index.js';
import type { PhoneSummary } from '../carriers/index.js';
import type { SimulatorNetworkSettings } from '../carriers/index.js';

export function presentSimulatorSettings(settings: SimulatorNetworkSettings): SimulatorSettings {
  return {
    seed: settings.seed,
    latencyMs: settings.latencyMs,
    failureRate: settings.failureRate,
    messagesPerSecond: settings.messagesPerSecond,
    errorCodes: settings.errorCodes.map(({ code, text, stage }) => ({ code, text, stage })),
    updated: { at: settings.updatedAt.toISOString() },
  };
}

export function presentSimulatorPhone(phone: PhoneSummary): SimulatorPhone {
  const parsed = normaliseContactMobile(phone.number, null, null);
  return {
    number: phone.number,
    country: parsed.valid ? parsed.country : null,
    businessNumbers: [...new Set(phone.businessNumbers)],
    counts: { received: phone.received, sent: phone.sent, calls: phone.calls },
    lastActivity: { at: phone.lastActivityAt.toISOString() },
    updated: { at: phone.changedAt.toISOString() },
  };
}

export function presentSimulatorMessage(row: SimulatorMessageRow): SimulatorMessage {
  // A failure shows once it happened: an accepted message bound to fail carries its code before the receipt.
  const failed = row.status === 'failed' || row.status === 'undelivered';
  return {
    id: row.id,
    kind: row.kind,
    businessNumber: row.businessNumber,
    phoneNumber: row.phoneNumber,
    body: row.body,
    media: row.media.map(({ url, contentType }) => ({ url, contentType })),
    status: row.status,
    error: failed && row.errorCode !== null ? { code: row.errorCode, text: row.errorText ?? '' } : null,
    created: { at: row.createdAt.toISOString() },
  };
}
